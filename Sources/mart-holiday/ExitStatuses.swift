import ArgumentParser

/// The exit statuses a command ends with besides those its result decides, as docs/cli.md
/// lists them per command: told by the command's type, so that the entry point never asks
/// which command it runs.
struct ExitStatuses: Sendable, Equatable {
  /// The status of bad usage and of trouble (an error, a result that could not be written to
  /// standard output); a result that did not reach standard output ends with it in place of a
  /// lower status.
  let trouble: Int32
  /// Whether the status says what the command did even when its summary could not be written to
  /// standard output: then a warning says so, and the status stays.
  let outlivesOutput: Bool

  /// Most commands: `0` done, `1` bad usage or trouble.
  static let standard = ExitStatuses()
  /// `diff` and `probe`: `1` is a result (a change found), so trouble is `2`, as diff(1) has it,
  /// and CI can tell "changes" from "could not run".
  static let changeFinding = ExitStatuses(trouble: 2)
  /// `run`: its status says what it published (the bundle is the result), whether or not its
  /// summary reached standard output.
  static let publishing = ExitStatuses(outlivesOutput: true)

  /// The statuses of `command`: its own (``CommandExitStatuses``), else ``standard``.
  init(of command: any ParsableCommand.Type) {
    self = (command as? any CommandExitStatuses.Type)?.exitStatuses ?? .standard
  }

  private init(trouble: Int32 = 1, outlivesOutput: Bool = false) {
    self.trouble = trouble
    self.outlivesOutput = outlivesOutput
  }
}

/// A command whose exit statuses are not the ``ExitStatuses/standard`` ones.
protocol CommandExitStatuses {
  static var exitStatuses: ExitStatuses { get }
}

extension DiffCommand: CommandExitStatuses {
  static var exitStatuses: ExitStatuses { .changeFinding }
}

extension ProbeCommand: CommandExitStatuses {
  static var exitStatuses: ExitStatuses { .changeFinding }
}

extension RunCommand: CommandExitStatuses {
  static var exitStatuses: ExitStatuses { .publishing }
}
