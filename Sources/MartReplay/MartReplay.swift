// MartReplay
