import Foundation

/// A rendition fetched whole into memory, such as the `web` JPEG a preview is drawn from.
public struct FetchedVariant: Sendable {
    /// The file's bytes.
    public let bytes: [UInt8]
    /// The file's strong validator, when the server sent one.
    public let etag: String?

    /// A rendition from its bytes and ETag.
    public init(bytes: [UInt8], etag: String?) {
        self.bytes = bytes
        self.etag = etag
    }
}

extension APIClient {

    /// Fetches a rendition of a photo, as JPEG, into memory: through the pacer, retries and the rule that
    /// the key never leaves the API's origin, like every other call. Renditions are small (`web` is 1024
    /// pixels on the long edge); answers over 32 MB are refused. The signed link the API redirects to is
    /// reused until it expires (`SignedLinks`), so fetching the same rendition again costs one request.
    public nonisolated func fetchVariant(photoID: Int, size: DownloadSize) async throws(APIError) -> FetchedVariant {
        let key = SignedLinks.Key(photoID: photoID, size: size)
        var refreshes = 0
        while true {
            let response: RawResponse
            do throws(APIError) {
                if let link = await signedLink(for: key) {
                    response = try await perform(Request<RawResponse>(get: link))
                } else {
                    response = try await followingRedirects(photoID: photoID, size: size, keepingLinkAs: key)
                }
            } catch .response(let error) where error.isExpiredLink && refreshes < FileDownload.maximumRefreshes {
                refreshes += 1
                await forgetSignedLink(key)
                continue
            }
            return FetchedVariant(bytes: Array(response.body.readableBytesView), etag: response.headers.first(name: "ETag"))
        }
    }

    /// Asks the API for the rendition and follows its redirects; the link that answered is kept for `key`.
    private nonisolated func followingRedirects(photoID: Int, size: DownloadSize, keepingLinkAs key: SignedLinks.Key) async throws(APIError) -> RawResponse {
        let location = API.downloadLocation(id: photoID, size: size, format: .jpeg)
        var endpoint = Request<RawResponse>(location.method, location.path, query: location.query) { $0 }
        endpoint.headers = [("Accept", "*/*")]
        var response = try await perform(endpoint)
        var redirects = 0
        var target: URL?
        while (300..<400).contains(response.status) {
            redirects += 1
            guard redirects <= FileDownload.maximumRedirects else {
                throw APIError.decoding(DecodingFailure(
                    path: "Location", reason: "a \(response.status) redirect without a usable Location header",
                    requestID: response.requestID
                ))
            }
            let next = try response.redirectTarget()
            target = next
            response = try await perform(Request<RawResponse>(get: next))
        }
        if let target { await keepSignedLink(target, for: key) }
        return response
    }

    private func signedLink(for key: SignedLinks.Key) -> URL? {
        signedLinks.link(for: key, at: time.now())
    }

    private func keepSignedLink(_ url: URL, for key: SignedLinks.Key) {
        signedLinks.keep(url, for: key, at: time.now())
    }

    private func forgetSignedLink(_ key: SignedLinks.Key) {
        signedLinks.forget(key)
    }
}
