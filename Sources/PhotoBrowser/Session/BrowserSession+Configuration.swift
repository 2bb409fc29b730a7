import Foundation
import Logging
import PhotoPickKit

extension BrowserSession {
    /// What a session needs besides a client.
    public struct Configuration: Sendable {
        /// Names the library in the state database: edits and downloads of one library never reach another.
        var library: String
        /// Where `state.sqlite` lives.
        var stateDirectory: URL
        /// Where downloads go.
        var downloadDirectory: URL
        /// The variant `d` downloads until another is chosen.
        var downloadVariant: DownloadSize
        /// Downloads at once.
        var concurrency: Int
        /// How long information and warnings stay on the status line.
        var messageLifetime: Duration
        /// Receives the session's own log lines.
        var logger: Logger
        /// What the session's timers wait on and its events are dated by.
        var clock: Timekeeper
        /// The key's `/me`, when the caller already asked for it; the session asks otherwise.
        var account: Me?
        /// The library is the one last opened at this address, taken before the server said whose the key
        /// is: its catalogue and edits show at once, and nothing is sent to the server (no walk, tag edit,
        /// download or `/me`) until `confirm(_:)`. If the key turns out to be another account's, the
        /// caller stops this session and opens that account's library instead.
        package var isProvisional = false
        /// When the catalogue is checked against the server.
        var refresh: RefreshPolicy
        /// How recently a page or read must have seen a photo's tags for a tag edit to be written
        /// without reading them first; zero always reads.
        var tagFreshness: Duration
        /// The tag names of the culling marks (`[cull]`).
        package var markNames = MarkNames()
        /// Seconds between frames of one burst at most (`burst_gap`).
        package var burstGap: Double = 2
        /// The config's `[searches]`.
        package var savedSearches: [SavedSearch] = []
        /// Photos one purge may delete at most (`purge_limit`).
        package var purgeLimit = 500
        /// Where `#` keeps originals before deleting them (`keep_originals`).
        package var keepOriginals: URL?
        /// Which files of a RAW+JPEG pair `d` takes (`pairs`).
        package var pairDownloads = PairDownloads.both
        /// How long before a check a finished download must have last changed for its stamp to be kept
        /// (`FileStamp.settling`); a test shortens it rather than wait two seconds.
        var stampSettling = FileStamp.settling

        /// A configuration with defaults for everything but the library, its two directories and the clock.
        public init(
            library: String, stateDirectory: URL,
            downloadDirectory: URL, downloadVariant: DownloadSize = .original,
            concurrency: Int = DownloadQueue.defaultConcurrency,
            messageLifetime: Duration = .seconds(5), logger: Logger = Logger(label: "photopick.browser"), clock: Timekeeper,
            account: Me? = nil, refresh: RefreshPolicy = .hourly, tagFreshness: Duration = .seconds(60)
        ) {
            self.library = library
            self.stateDirectory = stateDirectory
            self.downloadDirectory = downloadDirectory
            self.downloadVariant = downloadVariant
            self.concurrency = concurrency
            self.messageLifetime = messageLifetime
            self.logger = logger
            self.clock = clock
            self.account = account
            self.refresh = refresh
            self.tagFreshness = tagFreshness
        }

        /// The state a session of this configuration on the API at `apiURL` starts from.
        func initialState(apiURL: URL) -> BrowserState {
            BrowserState(
                downloadDirectory: downloadDirectory, downloadVariant: downloadVariant, concurrency: concurrency, refreshPolicy: refresh,
                markNames: markNames, burstGap: burstGap, savedSearches: savedSearches, purgeLimit: purgeLimit, keepOriginals: keepOriginals,
                pairDownloads: pairDownloads, apiURL: apiURL
            )
        }
    }
}
