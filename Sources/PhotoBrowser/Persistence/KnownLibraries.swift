import Foundation
import GRDB

/// The library last opened at each API address, with its account's name, in the state database: the
/// next start shows that library's catalogue before the server has said whose the key is. The server's
/// `/me` then confirms it, or names another library to show instead.
package struct KnownLibraries: Sendable {
    /// A library as it was last confirmed.
    package struct Known: Sendable, Equatable {
        /// The name the state database files the library under.
        package var library: String
        /// The account's name, for the header.
        package var name: String?

        /// A library and its account's name.
        package init(library: String, name: String?) {
            self.library = library
            self.name = name
        }
    }

    private let database: StateDatabase

    /// The state database in `directory`, shared with a session on it.
    package init(stateDirectory directory: URL) throws {
        database = try StateDatabase.opened(in: directory)
    }

    /// The library last confirmed at `apiURL`, if any.
    package func library(at apiURL: String) throws -> Known? {
        try database.queue.read { db in
            try Row.fetchOne(db, sql: "SELECT library, name FROM known_library WHERE api_url = ?", arguments: [apiURL]).map {
                Known(library: $0["library"], name: $0["name"])
            }
        }
    }

    /// Remembers `known` as the library at `apiURL`.
    package func remember(_ known: Known, at apiURL: String) throws {
        try database.queue.write { db in
            try db.execute(
                sql: "INSERT OR REPLACE INTO known_library (api_url, library, name) VALUES (?, ?, ?)",
                arguments: [apiURL, known.library, known.name]
            )
        }
    }
}
