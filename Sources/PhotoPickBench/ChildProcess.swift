import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A program run by the benchmark, measured the same way for every contender: wall time and peak RSS.
struct ChildProcess {
    let pid: pid_t
    /// The child's standard output, when captured.
    let output: FileHandle?
    /// The child's standard input, when given a pipe.
    var input: FileHandle?
    private let started = benchClock.elapsed()

    /// Starts `executable` (searched on PATH) with `arguments`. Secrets go in `environment`, never in argv.
    static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], captureOutput: Bool = false,
        captureInput: Bool = false
    ) throws -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeEnds: [Int32] = [-1, -1]
        if captureOutput {
            guard pipe(&pipeEnds) == 0 else { throw BenchError("cannot make a pipe: \(String(cString: strerror(errno)))") }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
            posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        var inputEnds: [Int32] = [-1, -1]
        if captureInput {
            guard pipe(&inputEnds) == 0 else { throw BenchError("cannot make a pipe: \(String(cString: strerror(errno)))") }
            posix_spawn_file_actions_adddup2(&actions, inputEnds[0], 0)
            posix_spawn_file_actions_addclose(&actions, inputEnds[1])
        }
        let merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        var pid: pid_t = 0
        let result = withCArguments([executable] + arguments, merged) { argv, envp in posix_spawnp(&pid, executable, &actions, nil, argv, envp) }
        if captureOutput { close(pipeEnds[1]) }
        if captureInput { close(inputEnds[0]) }
        guard result == 0 else { throw BenchError("cannot run \(executable): \(String(cString: strerror(result)))") }
        return ChildProcess(
            pid: pid, output: captureOutput ? FileHandle(fileDescriptor: pipeEnds[0], closeOnDealloc: true) : nil,
            input: captureInput ? FileHandle(fileDescriptor: inputEnds[1], closeOnDealloc: true) : nil
        )
    }

    /// Waits for the child to end; returns its exit status, wall time and peak resident memory.
    func wait() -> Measurement {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        let seconds = (benchClock.elapsed() - started).inSeconds
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Measurement(exitStatus: exitStatus, seconds: seconds, peakRSSMegabytes: Double(usage.ru_maxrss) / 1024)
    }

    /// Reads one line of the child's output.
    func readLine() -> String? {
        guard let output else { return nil }
        var bytes: [UInt8] = []
        while true {
            let chunk = output.readData(ofLength: 1)
            guard let byte = chunk.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    func terminate() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// Runs a program to the end and measures it.
    ///
    /// Peak memory comes from GNU time, not from our own `wait4`: a child spawned from this process starts
    /// with this process's high-water mark, which the kernel would report as the child's. GNU time is small,
    /// so the program it starts has an honest one.
    static func measure(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Measurement {
        let report = FileManager.default.temporaryDirectory.appending(path: "photopick-bench-rss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let run = try spawn(gnuTime, ["-f", "%M", "-o", report.path, executable] + arguments, environment: environment).wait()
        guard run.exitStatus == 0 else { throw BenchError("\(executable) exited with status \(run.exitStatus)") }
        let text = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        guard let kilobytes = text.split(whereSeparator: \.isNewline).last.flatMap({ Double($0) }) else {
            throw BenchError("GNU time reported no peak memory for \(executable)")
        }
        return Measurement(exitStatus: 0, seconds: run.seconds, peakRSSMegabytes: kilobytes / 1024)
    }

    static let gnuTime = "/usr/bin/time"

    /// Whether a program is on PATH.
    static func isInstalled(_ executable: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains { directory in
            FileManager.default.isExecutableFile(atPath: "\(directory)/\(executable)")
        }
    }

    /// This program's own executable, to run its hidden helper commands.
    static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// How a child ran.
struct Measurement {
    let exitStatus: Int32
    let seconds: Double
    let peakRSSMegabytes: Double
}

/// A benchmark that cannot go on, with the reason.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// `arguments` and `environment` as the NULL-ended C arrays `posix_spawn` takes, for the call's duration.
func withCArguments<T>(
    _ arguments: [String], _ environment: [String: String], _ body: ([UnsafeMutablePointer<CChar>?], [UnsafeMutablePointer<CChar>?]) -> T
) -> T {
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    return body(argv, envp)
}
