/// A setting of a run, as the pipeline names it in errors and messages: which input was at
/// fault, never how a front end spells it. The command line maps each to its option in one
/// table; ``description`` is a plain name for callers without one.
public enum RunSetting: Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The output directory, what may be served.
  case output
  /// The state directory, what must not be served (caches, raw archives, the run lock).
  case state
  /// The recordings a run serves instead of the network.
  case replay
  /// The mirrors standing in for the brands' sites.
  case source
  /// The day the run treats as today.
  case asOf
  /// Leave to publish over a bundle of a later as-of.
  case allowEarlierAsOf
  /// The folder the run keeps its responses in.
  case archive
  /// The SQLite cache of geocoders' answers.
  case geocodingCache
  /// How many bundles and raw archives are kept.
  case keep
  /// The brands published as fetched even when they lost most of their branches.
  case acceptShrink
  /// The system clock, read for the as-of when nothing else gives it.
  case systemClock
  /// The environment variable standing in for the system clock (``RunClock/environmentVariable``).
  case clockVariable

  /// A plain name: `the output directory`, `the as-of date`, ….
  public var description: String {
    switch self {
    case .output: "the output directory"
    case .state: "the state directory"
    case .replay: "the recordings replayed"
    case .source: "the source mirrors"
    case .asOf: "the as-of date"
    case .allowEarlierAsOf: "the leave to publish an earlier as-of"
    case .archive: "the archive folder"
    case .geocodingCache: "the geocoding cache"
    case .keep: "the number of bundles kept"
    case .acceptShrink: "the brands accepted as shrunk"
    case .systemClock: "the system clock"
    case .clockVariable: RunClock.environmentVariable
    }
  }
}

/// How settings are named in what a run writes for people (log lines, a brand's error in
/// `report.json`): the command line passes its options' names.
public typealias SettingNames = @Sendable (RunSetting) -> String

/// A message that may name settings, worded when it is shown: the command line names each
/// setting by its option, other callers by ``RunSetting/description``. Written as a string
/// literal, with `\(setting: .asOf)` where a setting is named.
public struct SettingText: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
  /// A piece of the message.
  public enum Part: Sendable, Hashable {
    case text(String)
    case setting(RunSetting)
  }

  public var parts: [Part]

  public init(_ text: String) { parts = [.text(text)] }

  public init(stringLiteral value: String) { parts = [.text(value)] }

  public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }

  /// The message with each setting named by `name`.
  public func worded(_ name: (RunSetting) -> String) -> String {
    parts.map { part in
      switch part {
      case .text(let text): text
      case .setting(let setting): name(setting)
      }
    }.joined()
  }

  /// The message with each setting's plain name.
  public var description: String { worded(\.description) }

  public static func + (lhs: SettingText, rhs: SettingText) -> SettingText {
    var joined = lhs
    joined.parts += rhs.parts
    return joined
  }

  public struct StringInterpolation: StringInterpolationProtocol {
    var parts: [Part] = []

    public init(literalCapacity: Int, interpolationCount: Int) {}

    public mutating func appendLiteral(_ literal: String) { parts.append(.text(literal)) }

    public mutating func appendInterpolation(setting: RunSetting) { parts.append(.setting(setting)) }

    public mutating func appendInterpolation(_ value: some Any) { parts.append(.text(String(describing: value))) }
  }
}
