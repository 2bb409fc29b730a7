import Foundation

/// Installs the Debian packages of missing reference tools (curl's peers and GNU time), as CI would.
enum Installer {
    /// `tools` maps a program (a name on PATH or an absolute path) to the Debian package that has it.
    static func ensure(_ tools: [String: String]) throws {
        let missing = tools.filter { !isPresent($0.key) }
        guard !missing.isEmpty else { return }
        let packages = Set(missing.values).sorted()
        note("installing missing Debian packages: \(packages.joined(separator: " "))")
        let sudo = getuid() == 0 ? [] : ["sudo"]
        for command in [["apt-get", "update"], ["apt-get", "install", "-y"] + packages] {
            let arguments = sudo + command
            let run = try ChildProcess.spawn(arguments[0], Array(arguments.dropFirst()), environment: ["DEBIAN_FRONTEND": "noninteractive"]).wait()
            guard run.exitStatus == 0 else { throw BenchError("\(arguments.joined(separator: " ")) failed; install \(packages.joined(separator: " ")) and run again") }
        }
        if let still = missing.keys.first(where: { !isPresent($0) }) {
            throw BenchError("\(still) is still missing; install \(tools[still]!) and run again")
        }
    }

    private static func isPresent(_ tool: String) -> Bool {
        tool.hasPrefix("/") ? FileManager.default.isExecutableFile(atPath: tool) : ChildProcess.isInstalled(tool)
    }
}
