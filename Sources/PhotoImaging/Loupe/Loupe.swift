/// The 100% view of a photo: which part of the upright original shows, one image pixel per screen
/// pixel, and the band decoded around it. The band is the view and a third of it on every side, so a
/// pan by a third in any direction is a copy, and a decode happens only past that; on a screen so
/// large that this would pass `bandBudget`, the margins narrow.
public struct Loupe: Sendable, Equatable {
    /// A rectangle of image pixels.
    public struct Region: Sendable, Hashable {
        /// Its top left corner and size, in image pixels.
        public var x, y, width, height: Int

        /// The rectangle at (`x`, `y`) of `width` × `height` pixels.
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// Whether `other` lies wholly inside.
        public func contains(_ other: Region) -> Bool {
            other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
        }
    }

    /// Decoded pixels and where they are in the image.
    public struct Band: Sendable, Equatable {
        /// Where the pixels are in the image.
        public let region: Region
        /// The pixels.
        public let image: PreviewImage
    }

    /// A pan by a third of the view.
    public enum Direction: Sendable {
        case left, right, up, down
    }

    /// The picture's upright size.
    public let imageSize: PixelSize
    /// The screen's pixels the view was asked to fill.
    public let viewport: PixelSize
    /// The part shown: the viewport's size, or the image's where that is smaller.
    public private(set) var view: Region
    /// What is decoded; nil until the first band arrives.
    public private(set) var band: Band?

    /// A loupe over `imageSize` showing `viewport` pixels centred on `centre` (fractions of the width
    /// and height, such as the sharpest point), kept inside the image.
    public init(imageSize: PixelSize, viewport: PixelSize, centre: (x: Double, y: Double)) {
        self.imageSize = imageSize
        self.viewport = viewport
        let width = min(max(1, viewport.width), imageSize.width), height = min(max(1, viewport.height), imageSize.height)
        view = Region(x: 0, y: 0, width: width, height: height)
        move(toX: Self.origin(centre.x, imageSize.width, width), y: Self.origin(centre.y, imageSize.height, height))
    }

    /// Moves by a third of the view, stopping at the image's edges.
    public mutating func pan(_ direction: Direction) {
        let stepX = max(1, view.width / 3), stepY = max(1, view.height / 3)
        switch direction {
        case .left: move(toX: view.x - stepX, y: view.y)
        case .right: move(toX: view.x + stepX, y: view.y)
        case .up: move(toX: view.x, y: view.y - stepY)
        case .down: move(toX: view.x, y: view.y + stepY)
        }
    }

    /// Centres the view on `centre` (fractions), as another photo's loupe moved.
    public mutating func follow(_ centre: (x: Double, y: Double)) {
        move(toX: Self.origin(centre.x, imageSize.width, view.width), y: Self.origin(centre.y, imageSize.height, view.height))
    }

    /// Where a view of `length` pixels starts to be centred at `fraction` of `total`: a centre half a
    /// view from the edge is the edge itself, whatever the rounding.
    private static func origin(_ fraction: Double, _ total: Int, _ length: Int) -> Int {
        Int((fraction * Double(total) - Double(length) / 2).rounded())
    }

    private mutating func move(toX x: Int, y: Int) {
        view.x = min(max(0, x), imageSize.width - view.width)
        view.y = min(max(0, y), imageSize.height - view.height)
    }

    /// What to decode next: nil while the band holds the view.
    public var regionToDecode: Region? { regionToDecode(viewFirst: false) }

    /// What to decode next: nil while the band holds the view; with `viewFirst` (a picture whose decode
    /// costs by its area, as a HEIC grid's tiles do), the view alone, so it waits for its own pixels only
    /// and the band around it follows as `bandAhead`.
    public func regionToDecode(viewFirst: Bool) -> Region? {
        if let band, band.region.contains(view) { return nil }
        return viewFirst ? view : reach
    }

    /// What to decode ahead while nothing else is asked: a band centred on the view, when a pan by a
    /// third in some direction would leave the band held now. Decoded in the background, it makes every
    /// pan a copy unless keys come faster than a decode.
    public var bandAhead: Region? {
        guard let band else { return nil }
        return band.region.contains(reach) ? nil : reach
    }

    /// The most pixels a band holds beyond the view itself: 8 MP, 24 MB of RGB. A view of 1920 × 1080
    /// and a third of it on every side is 5.8 MP; on larger screens the margins narrow to stay inside it
    /// (a pan then decodes), so the loupe's memory does not grow with the screen past the view.
    public static let bandBudget = 8_000_000

    /// The view and a third of it on every side, inside the image: every view one pan away. Past the
    /// budget the margins narrow, evenly, down to none.
    private var reach: Region {
        var marginX = view.width / 3, marginY = view.height / 3
        let viewArea = Double(view.width) * Double(view.height)
        if Double(view.width + 2 * marginX) * Double(view.height + 2 * marginY) > Double(Self.bandBudget) {
            // (1 + 2f)² × area = budget: f, the margin as a fraction of the view, at most a third.
            let fraction = max(0, min(1.0 / 3, ((Double(Self.bandBudget) / viewArea).squareRoot() - 1) / 2))
            marginX = Int(Double(view.width) * fraction)
            marginY = Int(Double(view.height) * fraction)
        }
        let x0 = max(0, view.x - marginX), y0 = max(0, view.y - marginY)
        let x1 = min(imageSize.width, view.x + view.width + marginX), y1 = min(imageSize.height, view.y + view.height + marginY)
        return Region(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Lets the band go, as before decoding the band ahead: the view on screen no longer needs it, and two
    /// bands would be held at once.
    public mutating func releaseBand() {
        band = nil
    }

    /// Keeps a decoded band (from `PreviewDecoder.decodeRegion`), replacing the last one.
    public mutating func decoded(_ image: PreviewImage, x: Int, y: Int) {
        band = Band(region: Region(x: x, y: y, width: image.width, height: image.height), image: image)
    }

    /// The view's pixels, when the band holds them.
    public var pixels: PreviewImage? {
        guard let band, band.region.contains(view) else { return nil }
        // A band that is the view (a screen at the budget) is shown as it is, not copied.
        if band.region == view { return band.image }
        let rowBytes = view.width * 3
        var pixels = [UInt8]()
        pixels.reserveCapacity(rowBytes * view.height)
        band.image.pixels.withUnsafeBufferPointer { source in
            for row in 0..<view.height {
                let start = ((view.y - band.region.y + row) * band.region.width + (view.x - band.region.x)) * 3
                pixels.append(contentsOf: source[start..<(start + rowBytes)])
            }
        }
        return PreviewImage(width: view.width, height: view.height, pixels: pixels)
    }
}
