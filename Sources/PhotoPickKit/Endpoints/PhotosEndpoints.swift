import Foundation

extension API {
    /// `GET /photos`: one page of photos; omit the cursor for the first.
    public static func photos(limit: Int? = nil, cursor: String? = nil) -> Request<Page<Photo>> {
        Request(.get, "/photos", query: pageQuery(limit: limit, cursor: cursor))
    }

    /// `GET /photos/{id}`.
    public static func photo(id: Int) -> Request<Photo> {
        Request(.get, "/photos/\(id)")
    }

    /// `PATCH /photos/{id}`: changes only what `update` sets.
    public static func updatePhoto(id: Int, _ update: PhotoUpdate) -> Request<Photo> {
        Request(.patch, "/photos/\(id)", body: update)
    }

    /// `DELETE /photos/{id}`.
    public static func deletePhoto(id: Int) -> Request<Void> {
        Request(.delete, "/photos/\(id)")
    }

    /// `GET /photos/{id}/download`: where the bytes are. Answers the signed URL the server redirects to,
    /// or the endpoint's own URL when it serves the bytes itself.
    public static func downloadLocation(id: Int, size: DownloadSize = .original, format: DownloadFormat = .original) -> Request<URL> {
        let (size, format) = size.asked(in: format)
        return Request(.get, "/photos/\(id)/download", query: [("size", size.rawValue), ("format", format.rawValue)]) { response in
            try (300..<400).contains(response.status) ? response.redirectTarget() : response.url
        }
    }

    /// `GET /photos/{id}/tags`: the photo's tags, whole.
    public static func photoTags(id: Int) -> Request<PhotoTags> {
        Request(.get, "/photos/\(id)/tags")
    }

    /// `PUT /photos/{id}/tags`: replaces the photo's whole tag set; `[]` clears it.
    public static func replacePhotoTags(id: Int, tagIDs: [Int]) -> Request<PhotoTagIDs> {
        Request(.put, "/photos/\(id)/tags", body: TagIDList(tagIds: tagIDs))
    }
}

/// Which rendition to download: the original, the original's pixels as JPEG (a HEIC, RAW or PNG
/// converted by the service: `size=original&format=jpeg`), or a JPEG bounded to a long edge.
public enum DownloadSize: String, Sendable, CaseIterable, Codable {
    case original, jpeg, a4, fhd, web

    /// The `size` and `format` the API is asked for: the original as JPEG is the original's size in the
    /// JPEG format; every other size keeps `format`.
    func asked(in format: DownloadFormat) -> (size: DownloadSize, format: DownloadFormat) {
        self == .jpeg ? (.original, .jpeg) : (self, format)
    }
}

/// Which encoding to download; `webp` needs a plan that includes it.
public enum DownloadFormat: String, Sendable, CaseIterable, Codable {
    case original, jpeg, webp
}
