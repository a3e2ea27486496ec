// MartHTML
