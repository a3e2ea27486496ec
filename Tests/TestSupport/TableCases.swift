import Testing

// Tables of many cases run as one test that loops over them, so the test log has a line for
// the table instead of a line per case. Every case still runs every check.

/// Runs `check` for each case of `table` in turn, with a comment naming the case for every
/// expectation. An error thrown for one case, a failed `#require` included, is recorded with
/// that case's name, and the remaining cases still run.
public func forEachCase<Case: CustomTestStringConvertible>(
  _ table: [Case], sourceLocation: SourceLocation = #_sourceLocation, _ check: (Case, Comment) throws -> Void
) {
  forEachCase(table, named: \.testDescription, sourceLocation: sourceLocation, check)
}

/// Runs `check` for each case of `table` in turn, with a comment naming the case (by `name`)
/// for every expectation. An error thrown for one case, a failed `#require` included, is
/// recorded with that case's name, and the remaining cases still run.
public func forEachCase<Case>(
  _ table: [Case], named name: (Case) -> String, sourceLocation: SourceLocation = #_sourceLocation,
  _ check: (Case, Comment) throws -> Void
) {
  for example in table {
    let comment = Comment(rawValue: name(example))
    do {
      try check(example, comment)
    } catch {
      record(error, comment, sourceLocation)
    }
  }
}

/// `forEachCase(_:named:sourceLocation:_:)` for checks that wait.
public func forEachCase<Case>(
  _ table: [Case], named name: (Case) -> String, sourceLocation: SourceLocation = #_sourceLocation,
  _ check: (Case, Comment) async throws -> Void
) async {
  for example in table {
    let comment = Comment(rawValue: name(example))
    do {
      try await check(example, comment)
    } catch {
      record(error, comment, sourceLocation)
    }
  }
}

private func record(_ error: any Error, _ comment: Comment, _ sourceLocation: SourceLocation) {
  if error is ExpectationFailedError {
    // The failed requirement is already recorded; name the case it stopped.
    Issue.record("\(comment.rawValue): stopped by the failed requirement", sourceLocation: sourceLocation)
  } else {
    Issue.record(error, comment, sourceLocation: sourceLocation)
  }
}
