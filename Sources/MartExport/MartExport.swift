// MartExport
