// MartPipeline
