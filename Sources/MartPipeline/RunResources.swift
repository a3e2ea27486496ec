import Foundation
import Logging
import MartBrands
import MartCore
import MartFetch
import MartFiles
import MartGeocoding
import MartReplay
import MartSQLite

/// What one configured run talks through: the replay server when replaying, the `FetchStack`
/// (archive → conditional → retrying → polite → origin redirection → libcurl), and the geocoding chain over the stack's polite network. Sources
/// and geocoders always name the real sites; only the redirection layer knows where requests
/// really go, so archives and exported records cite the real URLs. Opened from a prepared
/// ``RunPlan``: it creates no folder and checks no setting.
struct RunResources {
  let replayServer: ReplayServer?
  let stack: FetchStack
  /// What writes the stack's archive layer; `nil` on a replay.
  let archive: ArchiveWriter?
  /// Where the archive is written and where it goes when the run ends; `nil` on a replay.
  let archivePlan: ArchivePlan?
  /// What sources use: the top of the stack.
  var sourceFetcher: any HTTPFetching { stack.fetcher }
  let geocoding: GeocodingChain
  /// What the runs of the output learned of the designations.
  let designations: DesignationStore

  /// Opens what `plan` names, whose folders ``RunPlan/prepare()`` has created: the replay
  /// server for its recordings, the validator store, the fetch stack routed by its origin
  /// routes, the archive and the geocoding cache and chain.
  init(_ plan: RunPlan) throws(RunSetupError) {
    let configuration = plan.configuration
    if let recordings = plan.recordings {
      let server: ReplayServer
      do { server = try ReplayServer.startForRun(
          recordings, sources: configuration.sources, readsRegister: configuration.readsRegister) } catch {
        throw RunSetupError(setting: .replay, message: "cannot serve the recordings", cause: error)
      }
      replayServer = server
    } else {
      replayServer = nil
    }
    let overrides = plan.routes.overrides(over: replayServer?.baseURLOverrides ?? [:])
    let mode = plan.mode
    let replayServer = self.replayServer

    do throws(RunSetupError) {
      var validators: HTTPValidatorStore?
      if let validatorFile = plan.validatorStore {
        validators = try Self.openCache(validatorFile, setting: .state, logger: configuration.logger) {
          path throws(SQLiteError) in try HTTPValidatorStore(path: path)
        }
      }
      archivePlan = plan.archive
      if let archivePlan {
        do {
          archive =
            archivePlan.isWARC
            ? try ArchiveWriter(
              warcFile: archivePlan.writing, recordedOn: plan.asOf.iso, userAgent: configuration.client.userAgent,
              clock: configuration.clock)
            : try ArchiveWriter(directory: archivePlan.writing, recordedOn: plan.asOf.iso)
        } catch {
          throw RunSetupError(setting: .archive, cause: error)
        }
      } else {
        archive = nil
      }
      stack = mode.fetchStack(
        client: configuration.client, overrides: overrides, politeness: configuration.politeness,
        retry: configuration.retry, validators: validators, clock: configuration.clock, archive: archive)

      var geocodeCache: GeocodeCache?
      switch plan.geocodingCache {
      case nil: break
      case let (cache, readOnly: true)?:
        do { geocodeCache = try GeocodeCache(readingOnly: cache.path) } catch {
          configuration.logger.warning("\(cache.path) cannot be read (\(error)): the replay uses no geocoding cache")
        }
      case let (cache, readOnly: false)?:
        geocodeCache = try Self.openCache(cache, setting: .geocodingCache, logger: configuration.logger) {
          path throws(SQLiteError) in try GeocodeCache(path: path)
        }
      }
      designations = try Self.openCache(plan.designationStore, setting: .state, logger: configuration.logger) {
        path throws(SQLiteError) in try DesignationStore(path: path)
      }
      geocoding = GeocodingChain.fromEnvironment(
        cache: geocodeCache, fetcher: stack.politeNetwork,
        environment: mode.geocodingEnvironment(configured: configuration.geocodingEnvironment),
        retryPolicy: configuration.geocodingRetryPolicy, clock: stack.clock)
    } catch {
      replayServer?.stop()
      throw error
    }
  }

  /// Opens a cache database with `open`. A file that is not a database, or a corrupt one, is
  /// set aside (renamed, with one warning) and the cache starts empty: a cache never stops runs.
  private static func openCache<Cache>(
    _ file: URL, setting: RunSetting, logger: Logger, with open: (String) throws(SQLiteError) -> Cache
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
