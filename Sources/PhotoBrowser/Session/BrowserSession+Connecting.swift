import PhotoPickKit

/// A provisional session (`Configuration.isProvisional`): the last run's library shown before the
/// server said whose the key is, with what would reach the server held until `confirm(_:)`.
extension BrowserSession {
    /// The server says the provisional library is the key's (`me` is its `/me`): what was held back is
    /// sent, in order, and the session carries on as any other.
    public func confirm(_ me: Me) {
        guard !isConfirmed, !isStopped else { return }
        isConfirmed = true
        connect(account: me)
        let effects = held
        held = []
        for effect in effects { perform(effect) }
    }

    /// Starts what talks to the server: the outboxes' senders, the account (asked for unless given) and the tags.
    func connect(account: Me?) {
        if let pump { background { await pump.run() } }
        startEditSender()
        settleInterruptedPurges()
        if let me = account {
            report(.status(.accountLoaded(me)))
        } else {
            background { [client] in
                do {
                    let me = try await client.send(API.me())
                    self.report(.status(.accountLoaded(me)))
                } catch {
                    self.report(.status(.accountFailed(Self.describe(error))))
                }
            }
        }
        background { [client] in
            do {
                // The tag list names every chip on screen.
                let tags = try await RequestLane.$current.withValue(.visible) {
                    var tags: [PhotoPickKit.Tag] = []
                    for try await tag in TagStream(client: client) { tags.append(tag) }
                    return tags
                }
                try? await self.catalogue.save(tags: tags)
                self.report(.tags(.tagsLoaded(tags)))
            } catch {
                self.report(.tags(.tagsFailed(Self.describe(error))))
            }
        }
    }

    /// Starts sending edits once the session is connected and the catalogue is on screen: an edit sent
    /// before its photo is listed would otherwise be shown over by the catalogue's older copy.
    func startEditSender() {
        guard isConfirmed, state.loading.isCatalogueRead, !editSenderStarted, let pump else { return }
        editSenderStarted = true
        Task { await pump.sendEdits() }
    }

    /// Keeps an effect that would reach the server until the library is confirmed, and drops a held one
    /// that `effect` undoes; returns whether `effect` is dealt with.
    func hold(_ effect: BrowserEffect) -> Bool {
        switch effect {
        case .walkLibrary, .createTag, .renameTag, .recolourTag, .deleteTag, .startDownload:
            held.append(effect)
            return true
        case .cancelLoading:
            held.removeAll { $0 == .walkLibrary }
            return false
        case .stopDownload(let id):
            held.removeAll { if case .startDownload(let item) = $0 { item.id == id } else { false } }
            return false
        default:
            return false
        }
    }
}
