import PhotoBrowser
import PhotoPickFormats

/// The title bar: the library's name, counts, the filter, the selection, unsent edits and the budget.
struct HeaderView: View {
    let context: ViewContext
    let state: BrowserState
    let rect: Rect
    /// In cull mode the header says where the photos listed stand: counts of each mark and a bar.
    var culling = false

    func draw(in canvas: inout Canvas) {
        canvas.fill(rect, style: theme.headerDetail)
        let name: [String]
        if context.demo {
            name = ["Demo library: set PHOTOPICK_API_KEY to browse your own", "Demo library", "Demo"]
        } else {
            let account = (context.libraryName ?? state.account.keyName).map(TerminalText.sanitized) ?? "PhotoPick"
            name = [account]
        }
        var counts = state.loading.summary(count: state.library.count, now: context.now)
        if state.list.isUpdating {
            // The list shown is the last filter's until the new one is worked out.
            counts += " · filtering…"
        } else if !state.list.filter.isEmpty {
            counts += " · \(state.list.count.formatted()) shown"
        }
        var details = [counts]
        if culling { details.insert(cullSummary(), at: 0) }
        if let filter = filterSummary() { details.append(filter) }
        if !state.selection.isEmpty {
            details.append("\(state.selection.count.formatted()) selected (\(Figures.bytes(state.selection.totalBytes)))")
        }
        // Culling makes edits faster than a tight budget sends them: say how many wait.
        let unsent = state.unsentTagDeltas
        if unsent > 0 {
            var text = "\(unsent.formatted()) tag edit\(unsent == 1 ? "" : "s") to send"
            // More than a window's budget: how long the rate limit makes it take, a request a photo.
            if let limit = state.account.rateLimit?.limit, limit > 0, unsent > limit {
                text += " (about \(Figures.span(minutes: (unsent + limit - 1) / limit)) at \(limit.formatted()) a minute)"
            }
            details.append(text)
        }
        let unsentEdits = state.unsentPhotoEdits
        if unsentEdits > 0 { details.append("\(unsentEdits.formatted()) field edit\(unsentEdits == 1 ? "" : "s") to send") }
        if let purge = state.purge { details.append("deleting \(purge.deleted + purge.failed) of \(purge.total)") }
        let rate = rateSummary()
        let rateWidth = rate.map { DisplayWidth.of($0) + 2 } ?? 0
        for (index, candidate) in name.enumerated() {
            let text = " photopick · \(candidate)"
            let rest = " · " + details.joined(separator: " · ")
            let fits = DisplayWidth.of(text + rest) + rateWidth <= rect.width
            guard fits || index == name.count - 1 else { continue }
            let used = canvas.draw(text, x: rect.x, y: rect.y, style: theme.header, limit: rect.width)
            let available = rect.width - used - (fits ? rateWidth : 0)
            canvas.draw(rest, x: rect.x + used, y: rect.y, style: theme.headerDetail, limit: available)
            if fits, let rate {
                canvas.drawRight(rate + " ", maxX: rect.maxX, y: rect.y, style: theme.headerDetail, limit: rateWidth)
            }
            break
        }
    }

    /// "cull 2,000: 120 picked · 40 rejected · 300 rated · 25 labelled · 1,560 untouched ▰▰▱▱▱▱▱▱", the
    /// bar the share with some mark.
    private func cullSummary() -> String {
        let summary = state.cullSummary()
        let filled = summary.photos == 0 ? 0 : Int((Double(summary.touched) / Double(summary.photos) * 8).rounded(.down))
        let bar = String(repeating: "▰", count: filled) + String(repeating: "▱", count: 8 - filled)
        let parts = [(summary.picked, "picked"), (summary.rejected, "rejected"), (summary.rated, "rated"), (summary.labelled, "labelled"),
                     (summary.untouched, "untouched")]
        return "cull \(summary.photos.formatted()): " + parts.map { "\($0.0.formatted()) \($0.1)" }.joined(separator: " · ") + " \(bar)"
    }

    private func filterSummary() -> String? {
        let filter = state.list.filter
        var parts: [String] = []
        if !filter.text.isEmpty { parts.append("/\(TerminalText.sanitized(filter.text))") }
        switch filter.tags {
        case .none: break
        case .untagged: parts.append("untagged")
        case .any(let ids): parts.append("any of " + tagNames(ids))
        case .all(let ids): parts.append("all of " + tagNames(ids))
        }
        if filter.onlySelected { parts.append("selected only") }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    private func tagNames(_ ids: Set<Int>) -> String {
        state.tags.tags.filter { ids.contains($0.id) }.map { TerminalText.sanitized($0.name) }.joined(separator: ", ")
    }

    private func rateSummary() -> String? {
        guard let limit = state.account.rateLimit, let total = limit.limit, let remaining = limit.remaining else { return nil }
        // What the budget holds back and why: "throttled 12 s", "listing paused: 45 requests kept for you".
        return "API \(remaining)/\(total)" + (limit.heldBack(now: context.now).map { " · " + $0 } ?? "")
    }
}
