import Foundation
import Testing
@testable import PhotoBrowser
import PhotoPickFormats

/// The purge log reads back what was appended, survives a kill mid-write, and names what is still unsettled.
@Suite struct PurgeLogTests {
    private typealias Record = PurgeLog.Record
    private let noon = Date(timeIntervalSince1970: 1_717_243_200)

    private func withLog(_ body: (PurgeLog) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("PurgeLogTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(PurgeLog(url: directory.appendingPathComponent("purge-log.jsonl")))
    }

    private func record(_ kind: Record.Kind, _ id: Int, library: String = "a", purge: String = "p1") -> Record {
        Record(kind: kind, purge: purge, library: library, id: id, at: noon.addingTimeInterval(Double(id)))
    }

    private func appendBytes(_ text: String, to log: PurgeLog) throws {
        let handle = try FileHandle(forWritingTo: log.url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    @Test func recordsReadBackWhatWasAppendedOneLineEach() throws {
        try withLog { log in
            #expect(try log.records().isEmpty, "a missing file is an empty log")
            let intent = Record(kind: .intent, purge: "p1", library: "a", id: 7, filename: "two\nlines\tand a tab.jpg",
                                takenAt: noon, tags: ["Kyoto", "a/b"], bytes: 3_200_000, at: noon.addingTimeInterval(0.25))
            let kept = Record(kind: .kept, purge: "p1", library: "a", id: 7, path: "/keep/two.jpg", at: noon)
            let failed = Record(kind: .failed, purge: "p1", library: "a", id: 8, reason: "403: not allowed", at: noon)
            try log.append(intent)
            try log.append([kept, failed])
            #expect(try log.records() == [intent, kept, failed])
            let lines = try String(contentsOf: log.url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 4, "three lines and the empty piece after the last newline")
            // Keys sorted, slashes as they are, nil fields left out, whole seconds without a fraction.
            #expect(lines[1] == #"{"at":"2024-06-01T12:00:00Z","id":7,"kind":"kept","library":"a","path":"/keep/two.jpg","purge":"p1"}"#)
            #expect(lines[0].contains(#""filename":"two\nlines\tand a tab.jpg""#))
            #expect(lines[0].contains(#""at":"2024-06-01T12:00:00.250Z""#))
        }
    }

    @Test func aTornLastLineIsLeftOutAndCutOffByTheNextAppend() throws {
        try withLog { log in
            try log.append([record(.intent, 1), record(.intent, 2)])
            try appendBytes(#"{"at":"2024-06-01T12:00:03Z","id":3,"kin"#, to: log)
            #expect(try log.records() == [record(.intent, 1), record(.intent, 2)])
            try log.append(record(.deleted, 1))
            #expect(try log.records() == [record(.intent, 1), record(.intent, 2), record(.deleted, 1)])
            // A whole last line that is not JSON reads the same way.
            try appendBytes("\0\0\0\n", to: log)
            #expect(try log.records().count == 3)
            try log.append(record(.deleted, 2))
            #expect(try log.records().map(\.id) == [1, 2, 1, 2])
        }
    }

    @Test func aBadLineBeforeTheLastIsAnErrorNamingIt() throws {
        try withLog { log in
            try log.append(record(.intent, 1))
            try appendBytes("not a record\n", to: log)
            try appendBytes(String(decoding: try JSONEncoder().encode(["kind": "intent"]), as: UTF8.self) + "\n", to: log)
            try log.append(record(.intent, 2))
            let problem = #expect(throws: PurgeLog.Problem.self) { try log.records() }
            #expect(problem?.description.contains("line 2 of the purge log \(log.url.path)") == true, "\(problem?.description ?? "")")
        }
    }

    @Test func unsettledIsEachIntentWithNoOutcomeAfterItInThatLibrary() throws {
        try withLog { log in
            try log.append([record(.intent, 1), record(.intent, 2), record(.intent, 3), record(.intent, 4)])
            try log.append([record(.deleted, 1), record(.failed, 3), record(.kept, 4)])
            try log.append([record(.intent, 2, library: "b"), record(.deleted, 2, library: "b"), record(.intent, 9, library: "b")])
            try log.append([record(.intent, 5), record(.deleted, 5), record(.intent, 5, purge: "p2")])
            // Kept is not an outcome; another library's deletion of the same id settles nothing here.
            #expect(try log.unsettled(library: "a") == [record(.intent, 2), record(.intent, 4), record(.intent, 5, purge: "p2")])
            #expect(try log.unsettled(library: "b") == [record(.intent, 9, library: "b")])
            #expect(try log.unsettled(library: "c").isEmpty)
        }
    }

    @Test func theFileIsReadableByItsOwnerOnly() throws {
        try withLog { log in
            try log.append(record(.intent, 1))
            let permissions = try FileManager.default.attributesOfItem(atPath: log.url.path)[.posixPermissions] as? Int
            #expect(permissions == 0o600)
        }
    }

    @Test func aRunningPurgeIsMarkedUntilItStopsSoNoOtherProcessSettlesIt() throws {
        try withLog { log in
            #expect(!log.isRunning("p1"), "no lock file: not running")
            let held = try #require(log.markRunning("p1"))
            #expect(log.isRunning("p1"))
            #expect(log.markRunning("p1") == nil, "a second mark of the same purge fails")
            #expect(!log.isRunning("p2"))
            log.markStopped("p1", held)
            #expect(!log.isRunning("p1"))
        }
    }

    @Test func aPurgeThatDeletedNothingSaysSoWithoutASize() {
        var summary = PurgeSummary()
        summary.failed = [7: "the server said 500"]
        #expect(summary.summary(bytes: 0) == "Deleted no photos; 1 not deleted (photo 7: the server said 500).")
        #expect(summary.interruptionSummary.hasPrefix("no photos deleted; 1 not deleted"))
        summary.deleted = [3]
        #expect(summary.summary(bytes: 2_500_000).hasPrefix("Deleted 1 photo (\(Figures.bytes(2_500_000)))"))
    }
}
