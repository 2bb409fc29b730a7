import Foundation

/// A rendition fetched whole into memory, such as the `web` JPEG a preview is drawn from.
public struct FetchedVariant: Sendable {
    /// The file's bytes.
    public let bytes: [UInt8]
    /// The file's strong validator, when the server sent one.
    public let etag: String?

    public init(bytes: [UInt8], etag: String?) {
        self.bytes = bytes
        self.etag = etag
    }
}

extension APIClient {

    /// Fetches a rendition of a photo, as JPEG, into memory: through the pacer, retries and the rule that
    /// the key never leaves the API's origin, like every other call. Renditions are small (`web` is 1024
    /// pixels on the long edge); answers over 32 MB are refused.
    public nonisolated func fetchVariant(photoID: Int, size: DownloadSize) async throws(APIError) -> FetchedVariant {
        var endpoint = Request<RawResponse>(
            .get, "/photos/\(photoID)/download", query: [("size", size.rawValue), ("format", DownloadFormat.jpeg.rawValue)]
        ) { $0 }
        endpoint.headers = [("Accept", "*/*")]
        var refreshes = 0
        while true {
            var response = try await perform(endpoint)
            var redirects = 0
            do throws(APIError) {
                while (300..<400).contains(response.status) {
                    redirects += 1
                    guard redirects <= FileDownload.maximumRedirects,
                          let location = response.headers.first(name: "Location"),
                          let url = URL(string: location, relativeTo: response.url)?.absoluteURL
                    else {
                        throw APIError.decoding(DecodingFailure(
                            path: "Location", reason: "a \(response.status) redirect without a usable Location header",
                            requestID: response.requestID
                        ))
                    }
                    response = try await perform(Request<RawResponse>(get: url))
                }
            } catch let error where Self.isExpiredLink(error) && refreshes < FileDownload.maximumRefreshes {
                refreshes += 1
                continue
            }
            return FetchedVariant(bytes: Array(response.body.readableBytesView), etag: response.headers.first(name: "ETag"))
        }
    }

    /// A signed link refused with 403: it expired or its signature no longer holds, so ask for a new one.
    private static func isExpiredLink(_ error: APIError) -> Bool {
        guard case .response(let response) = error, response.status == 403 else { return false }
        return [.urlExpired, .invalidSignature, .unknown].contains(response.code)
    }
}
