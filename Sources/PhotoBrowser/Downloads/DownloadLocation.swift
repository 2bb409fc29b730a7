import Foundation

/// Where downloads go unless the user says otherwise.
public enum DownloadLocation {
    /// `$XDG_DOWNLOAD_DIR/photopick`, or `~/Downloads/photopick`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let downloads = environment["XDG_DOWNLOAD_DIR"], downloads.hasPrefix("/") {
            return URL(fileURLWithPath: downloads).appendingPathComponent("photopick")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent("Downloads/photopick")
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
