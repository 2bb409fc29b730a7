import PhotoPickKit

/// Makes the tags the outbox's deltas wait for. A creation leaves the outbox in the same transaction
/// that moves its deltas onto the real id; a kill after the server made the tag but before that
/// transaction sends it again on the next start, where the server's `409` names the tag made, which is
/// then used. So however often it is interrupted, the tag is made once and its deltas sent once.
extension TagSender {
    /// What became of one creation.
    enum Creation: Sendable {
        case made(PhotoPickKit.Tag)
        case refused(String)
        case delayed(String)
        case cancelled
    }

    /// Creates the waiting tags, oldest first, telling `report` of each; returns a reason when one has to wait.
    func createPendingTags(report: @Sendable (BrowserReport) async -> Void) async -> String? {
        let pending: [PendingTag]
        do {
            pending = try outbox.pendingTags()
        } catch {
            return "the state database cannot be read (\(error))."
        }
        for tag in pending {
            switch await Self.create(tag, client: client) {
            case .made(let made):
                do {
                    try outbox.resolve(tag, as: made.id)
                } catch {
                    return "the state database cannot be written (\(error))."
                }
                try? await catalogue.save(tag: made)
                await report(.tags(.tagCreated(made, placeholderID: tag.placeholderID)))
            case .refused(let reason):
                let dropped: [TagDelta]
                do {
                    dropped = try outbox.discard(tag)
                } catch {
                    return "the state database cannot be written (\(error))."
                }
                for (photoID, deltas) in Dictionary(grouping: dropped, by: \.photoID) {
                    await report(.tags(.tagDeltasRejected(photoID: photoID, sequences: deltas.map(\.sequence), reason: reason)))
                }
                await report(.tags(.tagCreationRejected(placeholderID: tag.placeholderID, reason: reason)))
            case .delayed(let reason):
                return reason
            case .cancelled:
                return nil
            }
        }
        return nil
    }

    /// `POST /tags`; a `409` means the name is taken, and the tag holding it is the one wanted.
    private static func create(_ tag: PendingTag, client: APIClient) async -> Creation {
        do throws(APIError) {
            return .made(try await client.createTag(name: tag.name, color: tag.color))
        } catch where error.code == .conflict {
            return await existing(named: tag.name, conflict: error, client: client)
        } catch {
            return creation(of: error)
        }
    }

    /// The tag the conflict names (`details.existingTagId`), or else the one whose name matches.
    private static func existing(named name: String, conflict: APIError, client: APIClient) async -> Creation {
        do {
            if case .response(let response) = conflict, let id = response.existingTagID {
                return .made(try await client.send(API.tag(id: id)))
            }
            let wanted = PhotoPickKit.Tag.nameKey(name)
            for try await tag in TagStream(client: client) where PhotoPickKit.Tag.nameKey(tag.name) == wanted {
                return .made(tag)
            }
            // Taken, yet not listed: deleted meanwhile; the next round creates it.
            return .delayed("the tag “\(name)” was taken and then gone; trying again.")
        } catch let error as APIError where error.status == 404 {
            return .delayed("the tag “\(name)” was taken and then gone; trying again.")
        } catch let error as APIError {
            return creation(of: error)
        } catch {
            return .delayed(String(describing: error))
        }
    }

    private static func creation(of error: APIError) -> Creation {
        switch Delivery<Void>(failure: error) {
        case .rejected(let reason): .refused(reason)
        case .delayed(let reason): .delayed(reason)
        case .cancelled: .cancelled
        case .sent: .delayed(error.userMessage)
        }
    }
}
