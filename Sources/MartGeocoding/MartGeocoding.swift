// MartGeocoding
