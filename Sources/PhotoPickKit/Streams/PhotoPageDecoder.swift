import NIOCore

/// Decodes a page of photos with `JSONParser`: the hot path of a library walk.
/// `package` so photopick-bench's `decode` can weigh it against `JSONDecoder`.
package enum PhotoPageDecoder {
    /// One page of photos from a `GET /photos` body, as `API.photos` decodes it.
    package static func decode(_ response: RawResponse) throws(APIError) -> Page<Photo> {
        let list: [JSONMembers]?
        let members: [String: JSONValue]
        do {
            (list, members) = try response.body.withUnsafeReadableBytes { bytes throws(JSONParser.Failure) in
                try JSONParser.parseList(bytes, at: "data")
            }
        } catch {
            throw failure("(byte \(error.offset))", error.reason, response)
        }
        guard let items = list else { throw failure("data", "expected an array of photos", response) }
        guard let hasMore = members["pagination"]?["hasMore"]?.boolValue else {
            throw failure("pagination.hasMore", "missing required field", response)
        }
        var photos: [Photo] = []
        photos.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            do {
                photos.append(try Photo(members: item))
            } catch {
                throw failure("data[\(index)]" + (error.field.map { ".\($0)" } ?? ""), error.reason, response)
            }
        }
        let cursor = members["pagination"]?["nextCursor"]?.stringValue
        return Page(data: photos, pagination: Pagination(nextCursor: cursor, hasMore: hasMore))
    }

    private static func failure(_ path: String, _ reason: String, _ response: RawResponse) -> APIError {
        .decoding(DecodingFailure(path: path, reason: reason, requestID: response.requestID))
    }
}
