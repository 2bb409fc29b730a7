import Foundation
import GRDB
import PhotoPickKit

/// A catalogue that cannot be read is set aside, never deleted, and a new one started.
extension Catalogue {
    /// Renames the file (and its journal) to `…damaged-<time>` beside it, so nothing is lost; returns the new name.
    static func setAside(_ url: URL, reason: any Error, at now: Date) throws -> URL {
        let stamp = Int(now.timeIntervalSince1970)
        let aside = url.deletingLastPathComponent().appending(path: url.lastPathComponent + ".damaged-\(stamp)")
        let manager = FileManager.default
        try? manager.removeItem(at: aside)
        if manager.fileExists(atPath: url.path) { try manager.moveItem(at: url, to: aside) }
        for suffix in ["-wal", "-shm"] {
            let companion = URL(fileURLWithPath: url.path + suffix)
            guard manager.fileExists(atPath: companion.path) else { continue }
            try? manager.removeItem(at: URL(fileURLWithPath: aside.path + suffix))
            try? manager.moveItem(at: companion, to: URL(fileURLWithPath: aside.path + suffix))
        }
        return aside
    }

    static func notice(aside: URL, reason: any Error) -> String {
        let why = (reason as? CatalogueDamage)?.reason ?? (reason as? DatabaseError)?.message ?? "\(reason)"
        return "The local catalogue could not be read (\(TerminalText.sanitized(why))); it was set aside as \(aside.lastPathComponent) and is being rebuilt from the server."
    }

    /// Sets the damaged file aside and starts an empty one in its place, for a file that opened but
    /// could not be read; returns the new catalogue and the notice.
    func rebuilt(library: String, after damage: any Error, at now: Date) throws -> (Catalogue, notice: String) {
        let aside = try Self.setAside(url, reason: damage, at: now)
        return (try Catalogue(url: url, library: library), Self.notice(aside: aside, reason: damage))
    }
}
