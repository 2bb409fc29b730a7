import PhotoPickKit

extension BrowserState {
    mutating func moveCursor(_ motion: CursorMotion) -> [BrowserEffect] {
        list.move(motion)
        extendVisualRange()
        return []
    }

    mutating func setSort(_ sort: SortKey) -> [BrowserEffect] {
        endVisualRange()
        list.setSort(sort, library: library, selection: selection)
        return post(.info, "Sorted by \(sort.label).")
    }

    mutating func changeFilter(_ change: (inout PhotoFilter) -> Void) -> [BrowserEffect] {
        endVisualRange()
        var filter = list.filter
        change(&filter)
        list.setFilter(filter, library: library, selection: selection)
        return []
    }

    // MARK: - Loading

    mutating func photosArrived(_ photos: [Photo], nextCursor: String?) -> [BrowserEffect] {
        loading.nextCursor = nextCursor
        let added = library.append(photos)
        for index in added {
            let photo = library[index]
            if let deltas = pendingDeltas[photo.id] {
                // The server's copy predates edits still in the outbox; show the photo as it will be.
                library.setTagIDs(deltas.reduce(photo.tagIDs) { $1.applied(to: $0) }, at: index)
            }
            tags.recount(from: [], to: library[index].tagIDs)
        }
        list.insert(added, library: library, selection: selection)
        if !added.isEmpty { reanchorVisualRange() }
        return []
    }

    mutating func photosFailed(_ reason: String) -> [BrowserEffect] {
        loading.phase = .failed(reason)
        return post(.error, "Loading stopped after \(library.count.formatted()) photos: \(reason)", remedy: .resumeLoading)
    }

    mutating func restartLoading() -> [BrowserEffect] {
        loading.nextCursor = nil
        loading.phase = .loading
        return [.loadPhotos(from: nil)] + post(.info, "The listing position expired; loading again from the start, skipping the \(library.count.formatted()) photos already here.")
    }

    mutating func cancelLoading() -> [BrowserEffect] {
        guard loading.phase == .loading else { return [] }
        loading.phase = .cancelled
        return [.cancelLoading] + post(.info, "Loading paused at \(library.count.formatted()) photos.", remedy: .resumeLoading)
    }

    mutating func retryLoading() -> [BrowserEffect] {
        guard loading.canRetry else { return [] }
        loading.phase = .loading
        return [.loadPhotos(from: loading.nextCursor)]
    }
}
