import Foundation

/// The XDG base directories photopick keeps its files in.
public enum XDGDirectory {
    /// `$variable` when it is set to an absolute path, else `fallback` below the home directory;
    /// then `components` below that.
    public static func resolve(
        _ variable: String, fallback: String, components: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        let base = environment[variable].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
            ?? (environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) } ?? FileManager.default.homeDirectoryForCurrentUser)
                .appending(path: fallback, directoryHint: .isDirectory)
        return base.appending(path: components, directoryHint: .isDirectory)
    }
}
