import ArgumentParser
import PhotoBrowser
import PhotoPickKit

/// What `get` and `sync` share: how files are fetched, placed and reported.
struct DownloadOptions: ParsableArguments {
    @Option(help: ArgumentHelp("original, jpeg (the original's size as JPEG), a4, fhd or web (default: the config's variant, else original).", valueName: "variant"))
    var variant: String?

    @Option(help: ArgumentHelp("original or jpeg: jpeg asks the service to convert a HEIC, RAW or PNG original to JPEG (saved as NAME.jpg); renditions are JPEG either way.", valueName: "format"))
    var format: String?

    @Option(help: ArgumentHelp("both, raw or jpeg: which files of a RAW+JPEG pair to take; both keeps what the query finds or --ids names (default: the config's pairs, else both).", valueName: "which"))
    var pairs: String?

    @Option(help: ArgumentHelp("Where each file goes under the folder, such as '{taken:%Y}/{taken:%Y-%m-%d}/{filename}'.", valueName: "template"))
    var template: String?

    @Option(help: ArgumentHelp("Downloads at once, 1 to 16.", valueName: "n"))
    var concurrency: Int?

    @Flag(help: "JSON Lines events on standard output: queued, progress, done, skipped, failed, summary.")
    var jsonl = false

    @Option(help: ArgumentHelp("xmp: beside each file, <file>.xmp with its tags, stars, label, title and description (rewritten when they change).", valueName: "kind"))
    var sidecar: String?

    @Flag(help: "Walk the server's library first, so the query and the sidecars see its latest tags.")
    var refresh = false

    func validate() throws {
        if let variant, DownloadSize(rawValue: variant) == nil {
            throw ValidationError("--variant \(variant) is not a variant; use original, jpeg, a4, fhd or web.")
        }
        if let format, !["original", "jpeg"].contains(format) {
            throw ValidationError("--format \(format) is not a format photopick asks for; use original or jpeg.")
        }
        if let template {
            do { _ = try PhotoTemplate(template) } catch { throw ValidationError("--template: \(error)") }
            if template.isEmpty || template.hasSuffix("/") { throw ValidationError("--template must end in a file name, such as {filename}.") }
        }
        let range = DownloadQueue.concurrencyRange
        if let concurrency, !range.contains(concurrency) {
            throw ValidationError("--concurrency \(concurrency) is out of range; use \(range.lowerBound) to \(range.upperBound).")
        }
        if let pairs, PairDownloads(rawValue: pairs) == nil {
            throw ValidationError("--pairs \(pairs) is not a choice; use both, raw or jpeg (the JPEG or HEIC of a RAW+JPEG pair).")
        }
        if let sidecar, sidecar != "xmp" { throw ValidationError("--sidecar \(sidecar) is not a kind of sidecar; use xmp.") }
    }

    /// The parsed template (validated already).
    var parsedTemplate: PhotoTemplate? { template.flatMap { try? PhotoTemplate($0) } }

    /// The photos to fetch of those chosen: a RAW+JPEG pair's files as `--pairs` (else the config) asks.
    @MainActor
    func files(_ photoIDs: [Int], state: BrowserState) -> [Int] {
        (pairs.flatMap(PairDownloads.init(rawValue:)) ?? state.pairDownloads).choose(photoIDs: photoIDs, in: state.library)
    }

    /// The variant asked for, else the session's; with `--format jpeg`, the original is asked for as JPEG.
    func size(default fallback: DownloadSize) -> DownloadSize {
        let size = variant.flatMap(DownloadSize.init(rawValue:)) ?? fallback
        return format == "jpeg" && size == .original ? .jpeg : size
    }
}
