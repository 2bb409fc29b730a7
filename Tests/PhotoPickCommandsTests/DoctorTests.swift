import Foundation
import PhotoPickConfig
import Testing
@testable import PhotoPickCommands

/// `photopick doctor` names what is missing at run time, each with its fix.
@Suite struct DoctorTests {
    @Test func anUnknownTermABadConfigAndAFolderUnderAFileAreEachNamedWithTheFix() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("DoctorTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("config.toml")
        try Data("concurrency = 99\n".utf8).write(to: config)
        let file = folder.appendingPathComponent("a-file")
        try Data().write(to: file)
        let environment = ["TERM": "photopick-no-such-term", "XDG_DOWNLOAD_DIR": file.path, "HOME": folder.path]
        let problems = DoctorCommand.problems(
            environment: environment, configURL: config, explicitConfig: true, config: nil, paths: Paths(environment: environment)
        )
        #expect(problems.contains { $0.contains("no terminfo entry for TERM=photopick-no-such-term") && $0.contains("ncurses-term") })
        #expect(problems.contains { $0.contains("key concurrency") && $0.contains("fix that line") })
        #expect(problems.contains { $0.contains("download folder") && $0.contains("is a file") && $0.contains("download_dir") })
        #expect(problems.allSatisfy { !$0.contains("\n") })
    }

    @Test func aFolderThatCanBeMadeIsNoProblem() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("DoctorTests-\(UUID().uuidString)/a/b")
        #expect(DoctorCommand.unwritable(folder) == nil)
        #expect(DoctorCommand.unwritable(URL(fileURLWithPath: "/etc/hostname/photopick")) != nil)
    }
}
