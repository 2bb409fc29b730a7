import Foundation

/// Where photopick keeps its files, from the XDG base directories.
public struct Paths: Sendable, Equatable {
    /// `$XDG_CONFIG_HOME/photopick/config.toml`, by default `~/.config/photopick/config.toml`.
    public let configFile: URL
    /// `$XDG_STATE_HOME/photopick`: the state database and the log.
    public let stateDirectory: URL
    /// `$XDG_CACHE_HOME/photopick/previews`: previews kept on disk.
    public let previewCache: URL
    /// `$XDG_CACHE_HOME/photopick/originals`: originals the loupe fetched, and its partial downloads.
    public let originalsCache: URL
    /// `$XDG_DOWNLOAD_DIR/photopick`, by default `~/Downloads/photopick`.
    public let downloads: URL
    /// `$XDG_DATA_HOME/photopick/demo`: the demo library.
    public let demoLibrary: URL

    /// The paths for an environment; a variable that is not an absolute path is ignored, as XDG says.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        func resolve(_ variable: String, fallback: String, _ components: String) -> URL {
            let base = environment[variable].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
                ?? (environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.homeDirectoryForCurrentUser)
                    .appending(path: fallback, directoryHint: .isDirectory)
            return base.appending(path: components, directoryHint: .isDirectory)
        }
        configFile = resolve("XDG_CONFIG_HOME", fallback: ".config", "photopick")
            .appending(path: "config.toml", directoryHint: .notDirectory)
        stateDirectory = resolve("XDG_STATE_HOME", fallback: ".local/state", "photopick")
        previewCache = resolve("XDG_CACHE_HOME", fallback: ".cache", "photopick/previews")
        originalsCache = resolve("XDG_CACHE_HOME", fallback: ".cache", "photopick/originals")
        downloads = resolve("XDG_DOWNLOAD_DIR", fallback: "Downloads", "photopick")
        demoLibrary = resolve("XDG_DATA_HOME", fallback: ".local/share", "photopick/demo")
    }
}
