import Foundation

/// Where downloads go unless the user says otherwise.
public enum DownloadLocation {
    /// `$XDG_DOWNLOAD_DIR/photopick`, or `~/Downloads/photopick`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGDirectory.resolve("XDG_DOWNLOAD_DIR", fallback: "Downloads", components: "photopick", environment: environment)
    }

    /// Free bytes on the file system that holds `directory`, or would once it is created.
    static func freeSpace(for directory: URL) -> Int64? {
        var url = directory.standardizedFileURL
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" {
            url.deleteLastPathComponent()
        }
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: url.path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
    }
}
