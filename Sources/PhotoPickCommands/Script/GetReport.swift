import Foundation
import PhotoBrowser
import PhotoPickKit
import PhotoPickFormats

/// What `get` tells while it works: with `--jsonl` one JSON object per event on standard output
/// (queued, progress at most twice a second, done, skipped, failed, then a summary); on a terminal a
/// progress line on standard error with speed and time left; otherwise only the summary.
@MainActor
struct GetReport {
    let jsonl: Bool
    let total: Int
    /// Items finished before this get: reported as already there.
    let already: Set<Int64>
    private let bar = isatty(STDERR_FILENO) == 1
    private var seen: [Int64: DownloadItem.Status] = [:]
    private var lastProgress = -Double.infinity
    private var output = OutputBuffer(lineByLine: true)
    private var barShown = false
    /// Bytes on disk over the last few seconds, for the speed: the queue's per-item rates need two
    /// reports from one download, which a file that arrives in one piece never gives.
    private var samples: [(seconds: Double, bytes: Int64)] = []

    /// What the speed and the pace of the progress line are measured by.
    let clock: Timekeeper

    init(jsonl: Bool, total: Int, clock: Timekeeper, already: Set<Int64> = []) {
        self.clock = clock
        self.jsonl = jsonl
        self.total = total
        self.already = already
    }

    /// Reports what changed since the last call.
    mutating func update(_ items: [DownloadItem]) {
        for item in items where seen[item.id] != item.status {
            let before = seen[item.id]
            seen[item.id] = item.status
            guard jsonl else { continue }
            switch item.status {
            case .queued where before == nil, .running where before == nil:
                event(["event": "queued", "id": item.photoID, "folder": item.directory.path, "name": item.filename])
            case .done, .skipped:
                let fetched = item.status == .done && !already.contains(item.id)
                event(["event": fetched ? "done" : "skipped", "id": item.photoID, "path": item.resultPath ?? "",
                       "bytes": item.receivedBytes, "resumedFrom": item.resumedFrom])
            case .failed(let reason):
                event(["event": "failed", "id": item.photoID, "reason": reason])
            default: break
            }
        }
        let now = clock.seconds
        guard now - lastProgress >= 0.5 else { return }
        lastProgress = now
        let finished = items.count { $0.status.isFinished || $0.status.failure != nil }
        let received = items.reduce(Int64(0)) { $0 + $1.receivedBytes }
        let expected = items.reduce(Int64(0)) { $0 + max($1.expectedBytes, $1.receivedBytes) }
        samples.append((now, received))
        // The last five seconds, measured from the newest sample at least that old.
        while samples.count > 1, now - samples[1].seconds >= 5 { samples.removeFirst() }
        let rate = samples.first.map { first in now - first.seconds >= 1 ? Double(received - first.bytes) / (now - first.seconds) : 0 } ?? 0
        if jsonl {
            event(["event": "progress", "finished": finished, "total": total, "bytes": received, "expectedBytes": expected,
                   "bytesPerSecond": Int(rate)])
        } else if bar {
            let fraction = expected > 0 ? min(1, Double(received) / Double(expected)) : 0
            let filled = Int(fraction * 24)
            let left = rate > 0 ? Double(max(0, expected - received)) / rate : nil
            let line = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: 24 - filled) + "] "
                + "\(finished)/\(total) · \(Figures.bytes(received)) of \(Figures.bytes(expected))"
                + (rate > 0 ? " · \(Figures.bytes(Int64(rate)))/s · \(Figures.clock(seconds: left)) left" : "")
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
            barShown = true
        }
    }

    /// The closing line: how many were fetched, already there, and failed, with the failures' reasons.
    /// `unopenable`: files fetched whole (their digest matched) that their format's decoder cannot read,
    /// with its reason: the server holds them damaged.
    mutating func finish(
        done: Int, skipped: Int, failed: [DownloadItem], unopenable: [(item: DownloadItem, reason: String)] = [], sidecars: Int? = nil
    ) {
        clearBar()
        if jsonl {
            for (item, reason) in unopenable {
                event(["event": "unopenable", "id": item.photoID, "path": item.resultPath ?? "", "reason": reason])
            }
            var summary: [String: Any] = ["event": "summary", "total": total, "done": done, "skipped": skipped, "failed": failed.count,
                                          "unopenable": unopenable.count]
            if let sidecars { summary["sidecars"] = sidecars }
            event(summary)
        }
        for item in failed.prefix(20) {
            FileHandle.standardError.write(Data("photopick get: photo \(item.photoID) (\(TerminalText.sanitized(item.filename))) failed: \(TerminalText.sanitized(item.status.failure ?? ""))\n".utf8))
        }
        for (item, reason) in unopenable.prefix(20) {
            let name = TerminalText.sanitized(item.resultPath ?? item.filename)
            FileHandle.standardError.write(Data("photopick get: \(name) does not open: \(TerminalText.sanitized(reason)); kept as the server holds it (its digest matches), so the original there is damaged\n".utf8))
        }
        let written = sidecars.map { ", \($0) sidecar\($0 == 1 ? "" : "s") written" } ?? ""
        let damaged = unopenable.isEmpty ? "" : ", \(unopenable.count) do\(unopenable.count == 1 ? "es" : "") not open"
        FileHandle.standardError.write(Data("photopick get: \(done) fetched, \(skipped) already there, \(failed.count) failed\(damaged), of \(total)\(written).\n".utf8))
    }

    mutating func interrupted(left: Int) {
        clearBar()
        if jsonl { event(["event": "interrupted", "left": left]) }
    }

    private mutating func clearBar() {
        if barShown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        barShown = false
    }

    private mutating func event(_ fields: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        output.line(String(decoding: data, as: UTF8.self))
    }

}
