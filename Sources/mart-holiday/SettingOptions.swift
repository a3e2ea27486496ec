import MartPipeline

/// The command line's name for each setting of a run: the one table between the pipeline's
/// ``RunSetting`` and the options of `run` and `probe`. The clock has no option; it keeps its
/// own name.
enum SettingOptions {
  static func name(_ setting: RunSetting) -> String {
    switch setting {
    case .output: "--output"
    case .state: "--state"
    case .replay: "--replay"
    case .source: "--source"
    case .asOf: "--as-of"
    case .allowEarlierAsOf: "--allow-earlier-as-of"
    case .archive: "--archive"
    case .geocodingCache: "--geocoding-cache"
    case .keep: "--keep"
    case .acceptShrink: "--accept-shrink"
    case .systemClock, .clockVariable: setting.description
    }
  }
}

extension RunSetupError {
  /// The error as the command line says it: each setting named by its option.
  var commandLineText: String { worded(SettingOptions.name) }
}
