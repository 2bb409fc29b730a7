import Foundation
import PhotoPickKit

/// Making, renaming, recolouring and deleting tags, and what the server says of it.
extension Tagging {
    /// Creates a tag. Asked for photos (the tag picker's "create", `tag add NEW`), the tag is pending:
    /// it goes on the photos at once, and its creation and those edits are one outbox write, sent in
    /// order by `TagSender`. A name that exists already is that tag.
    mutating func requestTagCreation(name: String, color: String?, applyTo photoIDs: [Int], _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        if let reason = context.account.disabledReason(.tagManagement) { return shared.post(.warning, reason) }
        guard let name = Self.tagName(name) else { return shared.post(.warning, Self.unnamedTag) }
        if let problem = Self.colourProblem(color) { return shared.post(.warning, problem) }
        guard !photoIDs.isEmpty else { return [.createTag(name: name, color: color)] }
        if let reason = context.account.disabledReason(.tagging) { return shared.post(.warning, reason) }
        let tagID = tags.tag(named: name)?.id ?? addPendingTag(name: name, color: color, &shared)
        return editTag(tagID, .add, photoIDs: photoIDs, &shared, context)
    }

    /// Lists a tag to be made under a fresh placeholder, and returns it.
    mutating func addPendingTag(name: String, color: String?, _ shared: inout Shared) -> Int {
        let placeholderID = -Int(shared.ledger.takeSequence())
        tags.addPending(PendingTag(placeholderID: placeholderID, name: name, color: color))
        return placeholderID
    }

    mutating func requestTagRename(id: Int, name: String, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        if let reason = context.account.disabledReason(.tagManagement) { return shared.post(.warning, reason) }
        guard let name = Self.tagName(name) else { return shared.post(.warning, Self.unnamedTag) }
        if tags.isPending(id) { return shared.post(.warning, Self.stillBeingMade) }
        return [.renameTag(id: id, name: name)]
    }

    mutating func requestTagRecolour(id: Int, color: String?, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        if let reason = context.account.disabledReason(.tagManagement) { return shared.post(.warning, reason) }
        if let problem = Self.colourProblem(color) { return shared.post(.warning, problem) }
        if tags.isPending(id) { return shared.post(.warning, Self.stillBeingMade) }
        return [.recolourTag(id: id, color: color)]
    }

    private static let unnamedTag = "A tag needs a name; type one and press Enter."
    private static let stillBeingMade = "That tag is still being created; change it once it exists."

    /// A typed tag name without its surrounding blanks, or nil when nothing is left.
    private static func tagName(_ typed: String) -> String? {
        let name = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? nil : name
    }

    /// Why a typed colour is refused, or nil for none or a valid `#rrggbb`.
    private static func colourProblem(_ color: String?) -> String? {
        guard let color, TagColor(hex: color) == nil else { return nil }
        return "“\(color)” is not a colour; use #rrggbb, like #e94b60."
    }

    /// A tag not made yet is deleted here alone: with its pending edits, out of the outbox.
    mutating func requestTagDeletion(id: Int, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        if let reason = context.account.disabledReason(.tagManagement) { return shared.post(.warning, reason) }
        return tags.isPending(id) ? tagDeleted(id, &shared) : [.deleteTag(id: id)]
    }

    /// A tag the server made or changed.
    mutating func tagSaved(_ tag: PhotoPickKit.Tag, _ shared: inout Shared) -> [BrowserEffect] {
        let isNew = tags.tag(id: tag.id) == nil
        tags.upsert(tag)
        shared.news.tagsChanged = true
        return shared.post(.info, isNew ? "Created the tag “\(tag.name)”." : "Saved the tag “\(tag.name)”.")
    }

    /// The server made a pending tag (or had one of that name): photos, waiting deltas and undo now name
    /// the real id, as the outbox does.
    mutating func tagCreated(_ tag: PhotoPickKit.Tag, placeholderID: Int, _ shared: inout Shared) -> [BrowserEffect] {
        // A bulk's photos move as a set; photos with deltas of their own are worked out one by one.
        shared.library.renameTag(placeholderID, to: tag.id)
        for photoID in pending.rename(placeholderID, to: tag.id) {
            guard let index = shared.library.index(ofID: photoID) else { continue }
            var shown = shared.library.tagIDs(at: index).filter { $0 != placeholderID }
            if let wish = pending[photoID]?.first(where: { $0.tagID == tag.id }) { shown = wish.applied(to: shown) }
            shared.library.setTagIDs(shown, at: index)
        }
        tags.resolve(placeholderID, as: tag)
        shared.ledger.rewriteSteps { step in
            guard case .tags(let edits) = step else { return step }
            return .tags(edits.map { $0.tagID == placeholderID ? TagEdit(tagID: tag.id, change: $0.change, photoIDs: $0.photoIDs) : $0 })
        }
        shared.news.tagsChanged = true
        return reportReplayIfDone(&shared)
    }

    /// The server will not make a pending tag; its photos were given back their tags as each delta was
    /// rejected, and it leaves the list.
    mutating func tagCreationRejected(_ placeholderID: Int, reason: String, _ shared: inout Shared) -> [BrowserEffect] {
        let name = tags.tag(id: placeholderID)?.name ?? "tag"
        _ = tagDeleted(placeholderID, &shared)
        return shared.post(.error, "Could not create the tag “\(name)”: \(reason)")
    }

    /// The server removed the tag from every photo; so does photopick, including edits not yet sent.
    mutating func tagDeleted(_ id: Int, _ shared: inout Shared) -> [BrowserEffect] {
        let name = tags.tag(id: id)?.name ?? "tag \(id)"
        tags.remove(id: id)
        let photos = shared.library.removeTagEverywhere(id)
        for photoID in Array(pending.photoIDs) where pending[photoID]?.contains(where: { $0.tagID == id }) == true {
            pending.remove(of: photoID) { $0.tagID == id }
        }
        pending.removeBulks { $0.tagID == id }
        shared.ledger.rewriteSteps { step in
            guard case .tags(let edits) = step else { return step }
            let kept = edits.filter { $0.tagID != id }
            return kept.isEmpty ? nil : .tags(kept)
        }
        shared.news.tagsChanged = true
        return [.discardTagDeltas(tagID: id)] + shared.post(.info, "Deleted the tag “\(name)”; it was on \(photos.formatted()) loaded photos.")
    }
}
