import Foundation
import Logging
import MartBrands
import MartCore
import MartFetch
import MartGeocoding
import MartReplay
import MartSQLite

/// What one configured run talks through: the replay server when replaying, the `FetchStack`
/// (conditional → retrying → polite → origin redirection → libcurl), the archive of source
/// responses on top of it, and the geocoding chain over the stack's polite network. Sources
/// and geocoders always name the real sites; only the redirection layer knows where requests
/// really go, so archives and exported records cite the real URLs.
struct RunResources {
  let replayServer: ReplayServer?
  let stack: FetchStack
  let archive: ArchivingFetcher?
  /// Where the archive is written and where it goes when the run ends; `nil` on a replay.
  let archivePlan: ArchivePlan?
  /// What sources use: the stack, through the archive when there is one.
  var sourceFetcher: any HTTPFetching { archive ?? stack.fetcher }
  let geocoding: GeocodingChain

  /// Builds what `configuration` calls for, for a run of `asOf`, serving `replay` (the
  /// recordings of `--replay`, already loaded) when given.
  init(_ configuration: RunConfiguration, replay: ReplayArchive?, asOf asOfDate: CalendarDate) throws(RunSetupError) {
    var overrides: [String: String] = [:]
    if let archive = replay {
      let server: ReplayServer
      do { server = try ReplayServer.startForRun(archive, sources: configuration.sources) } catch {
        throw RunSetupError(setting: "--replay", message: "cannot serve the recordings: \(error)")
      }
      replayServer = server
      overrides = server.baseURLOverrides
    } else {
      replayServer = nil
    }
    overrides = Self.sourceOverrides(overrides, mirrors: configuration.mirrors, sources: configuration.sources)
    let state = configuration.stateDirectory
    let mode: RunMode = replayServer == nil ? .live : .replay
    let replayServer = self.replayServer

    do throws(RunSetupError) {
      let validatorFile = mode.validatorStore(configured: configuration.validatorStore, state: state)
      var validators: HTTPValidatorStore?
      if let validatorFile {
        try SettingChecks.prepare(validatorFile.deletingLastPathComponent(), setting: "--state")
        validators = try Self.openCache(validatorFile, setting: "--state", logger: configuration.logger) {
          path throws(SQLiteError) in try HTTPValidatorStore(path: path)
        }
      }
      stack = mode.fetchStack(
        client: configuration.client, overrides: overrides, politeness: configuration.politeness,
        retry: configuration.retry, validators: validators)

      archivePlan = mode.archive(configured: configuration.archiveDirectory, state: state, asOf: asOfDate)
      if let plan = archivePlan {
        try SettingChecks.prepare(plan.isWARC ? plan.writing.deletingLastPathComponent() : plan.writing, setting: "--archive")
        do {
          archive =
            plan.isWARC
            ? try ArchivingFetcher(
              wrapping: stack.fetcher, warcFile: plan.writing, recordedOn: asOfDate.iso,
              userAgent: configuration.client.userAgent)
            : try ArchivingFetcher(wrapping: stack.fetcher, directory: plan.writing, recordedOn: asOfDate.iso)
        } catch {
          throw RunSetupError(setting: "--archive", message: error.description)
        }
      } else {
        archive = nil
      }

      var geocodeCache: GeocodeCache?
      switch mode.geocodingCache(configured: configuration.geocodingCache, state: state) {
      case nil: break
      case let (cache, readOnly: true)?:
        do { geocodeCache = try GeocodeCache(readingOnly: cache.path) } catch {
          configuration.logger.warning("\(cache.path) cannot be read (\(error)): the replay uses no geocoding cache")
        }
      case let (cache, readOnly: false)?:
        try SettingChecks.prepare(cache.deletingLastPathComponent(), setting: "--geocoding-cache")
        geocodeCache = try Self.openCache(cache, setting: "--geocoding-cache", logger: configuration.logger) {
          path throws(SQLiteError) in try GeocodeCache(path: path)
        }
      }
      geocoding = GeocodingChain.fromEnvironment(
        cache: geocodeCache, fetcher: stack.politeNetwork,
        environment: mode.geocodingEnvironment(configured: configuration.geocodingEnvironment),
        retryPolicy: configuration.geocodingRetryPolicy)
    } catch {
      replayServer?.stop()
      throw error
    }
  }

  /// Where each source's requests go: `replayOverrides` (the replay server's, or none), then
  /// each brand's mirror for its source's origin and scope; a source with a `scope` follows its
  /// site's mirror, and its site's robots.txt follows the part's mirror.
  static func sourceOverrides(
    _ replayOverrides: [String: String], mirrors: [BrandSlug: String], sources: [any BrandSource]
  ) -> [String: String] {
    var overrides = replayOverrides
    let unmirrored = overrides
    for (brand, baseURL) in mirrors {
      for source in sources where source.brands.contains(brand) {
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        overrides[source.origin + source.scope] = base + source.scope
      }
    }
    for source in sources where !source.scope.isEmpty {
      let siteMirrored = overrides[source.origin] != unmirrored[source.origin]
      if let partMirror = overrides[source.origin + source.scope] {
        // The site's robots.txt is asked where the part went, unless the site has a mirror too.
        if !siteMirrored, partMirror.hasSuffix(source.scope) {
          overrides[source.origin + "/robots.txt"] = partMirror.dropLast(source.scope.count) + "/robots.txt"
        }
      } else if siteMirrored {
        // A source reading one part of a site keeps going where it went when only another
        // source of that site has a mirror.
        overrides[source.origin + source.scope] = (unmirrored[source.origin] ?? source.origin) + source.scope
      }
    }
    return overrides
  }

  /// Opens a cache database with `open`. A file that is not a database, or a corrupt one, is
  /// set aside (renamed, with one warning) and the cache starts empty: a cache never stops runs.
  private static func openCache<Cache>(
    _ file: URL, setting: String, logger: Logger, with open: (String) throws(SQLiteError) -> Cache
  ) throws(RunSetupError) -> Cache {
    do {
      let (cache, setAside) = try SQLiteConnection.openSettingAsideDamaged(path: file.path, with: open)
      if let setAside {
        logger.warning("\(file.path) was not a readable database; moved it to \(setAside) and started an empty one")
      }
      return cache
    } catch {
      throw RunSetupError(setting: setting, message: "\(error) (check the file's permissions, or remove it)")
    }
  }
}
