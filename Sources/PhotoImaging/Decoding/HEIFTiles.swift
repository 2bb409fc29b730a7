import CHeif
import Dispatch
import Foundation
import Synchronization

/// A HEIC stored as a grid of tiles, as phones write it (an iPhone's 12 MP frame is 48 tiles of
/// 512 × 512), read a tile at a time through libheif's tile API: only the tiles under a region are
/// decoded, on every core, and each is kept for the photo's next view. Tiles are read as stored and the
/// picture's rotation and mirroring (`irot`, `imir`) applied here, as for a TIFF's orientation: libheif
/// 1.19.7 misplaces a turned grid's tiles (an assertion ends the process). A grid it would crop (`clap`)
/// is decoded whole instead.
public final class HEIFTiles: RegionReader {
    /// The file, read again by each worker's own libheif context.
    private let bytes: [UInt8]
    /// The file's format, for messages.
    private let format: OriginalFormat
    /// The grid as stored: tiles across and down, and each tile's size.
    private let columns: Int, rows: Int, tileWidth: Int, tileHeight: Int
    /// The picture as stored, and the EXIF orientation (1...8) its rotation and mirroring come to.
    private let stored: PixelSize, orientation: Int
    /// The upright picture's size.
    public let size: PixelSize
    /// The tiles decoded so far, as stored, by `row * columns + column`.
    private let decoded = Mutex<[Int: PreviewImage]>([:])
    /// How many tiles have been decoded, counted for tests of what a view costs.
    private let decodes = Atomic<Int>(0)

    /// The grid of the primary image in `bytes`, nil when it is one picture (no grid), a grid of one, one
    /// libheif crops, one with an alpha image (libheif decodes the alpha's tiles alongside, unchecked) or
    /// one of other than HEVC tiles: those are decoded whole, where libheif checks every tile. A tile that
    /// is missing is damage: libheif 1.19.7 would dereference it.
    static func open(_ bytes: [UInt8], format: OriginalFormat, pixelLimit: Int) throws(PreviewError) -> HEIFTiles? {
        try OriginalDecoder.withPrimaryHEIF(bytes, format: format, pixelLimit: pixelLimit) { (context, handle) throws(PreviewError) -> HEIFTiles? in
            var tiling = heif_image_tiling()
            let error = heif_image_handle_get_image_tiling(handle, 0, &tiling)
            guard error.code == heif_error_Ok else { throw OriginalDecoder.damaged(format, error) }
            guard tiling.num_columns * tiling.num_rows > 1, heif_image_handle_has_alpha_channel(handle) == 0,
                  let orientation = Self.orientation(context, heif_image_handle_get_item_id(handle)) else { return nil }
            guard tiling.tile_width > 0, tiling.tile_height > 0, tiling.image_width > 0, tiling.image_height > 0,
                  Int(tiling.tile_width) * Int(tiling.num_columns) >= Int(tiling.image_width),
                  Int(tiling.tile_height) * Int(tiling.num_rows) >= Int(tiling.image_height) else {
                throw .damaged(format: format.name, reason: "its grid's tiles do not cover the picture")
            }
            for row in 0..<tiling.num_rows {
                for column in 0..<tiling.num_columns {
                    var id: heif_item_id = 0
                    let found = heif_image_handle_get_grid_image_tile_id(handle, 0, column, row, &id)
                    let type = found.code == heif_error_Ok && id != 0 ? heif_item_get_item_type(context, id) : 0
                    guard type != 0 else { throw .damaged(format: format.name, reason: "tile \(column),\(row) of its grid is missing") }
                    guard type == Self.hevc else { return nil }
                }
            }
            let picture = HEIFTiles(bytes: bytes, format: format, tiling: tiling, orientation: orientation)
            // What libheif says the upright picture is must be what the turned grid makes.
            guard picture.size == PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle))) else { return nil }
            return picture
        }
    }

    /// `hvc1`, the item type of an HEVC picture.
    private static let hevc: UInt32 = "hvc1".utf8.reduce(0) { $0 << 8 | UInt32($1) }

    /// The EXIF orientation that the item's rotations and mirrorings come to, in their order; nil when
    /// it is also cropped.
    private static func orientation(_ context: OpaquePointer, _ id: heif_item_id) -> Int? {
        let count = heif_item_get_transformation_properties(context, id, nil, 0)
        var properties = [heif_property_id](repeating: 0, count: Int(max(0, count)))
        _ = heif_item_get_transformation_properties(context, id, &properties, count)
        var transforms: [HEIFTransform] = []
        for property in properties {
            switch heif_item_get_property_type(context, id, property) {
            case heif_item_property_type_transform_rotation:
                transforms.append(.rotation(quarterTurnsAnticlockwise: Int(heif_item_get_property_transform_rotation_ccw(context, id, property)) / 90))
            case heif_item_property_type_transform_mirror:
                transforms.append(.mirror(topToBottom: heif_item_get_property_transform_mirror(context, id, property) == heif_transform_mirror_direction_vertical))
            default:
                return nil
            }
        }
        return HEIFTransform.exifOrientation(transforms)
    }

    private init(bytes: [UInt8], format: OriginalFormat, tiling: heif_image_tiling, orientation: Int) {
        self.bytes = bytes
        self.format = format
        self.orientation = orientation
        columns = Int(tiling.num_columns)
        rows = Int(tiling.num_rows)
        tileWidth = Int(tiling.tile_width)
        tileHeight = Int(tiling.tile_height)
        stored = PixelSize(width: Int(tiling.image_width), height: Int(tiling.image_height))
        size = stored.upright(exif: orientation)
    }

    /// Tiles decoded since this picture was opened.
    package var tilesDecoded: Int { decodes.load(ordering: .relaxed) }

    /// The tiles across and down, and each one's size, as stored: `(columns, rows, width, height)`.
    package var grid: (columns: Int, rows: Int, width: Int, height: Int) { (columns, rows, tileWidth, tileHeight) }

    /// The pixels of the upright rectangle from (`x0`, `y0`) to (`x1`, `y1`), which must lie inside the
    /// picture: the stored tiles under it decoded (those not decoded before), cut, pasted together and
    /// stood upright.
    public func region(x0: Int, y0: Int, x1: Int, y1: Int) throws(PreviewError) -> PreviewImage {
        let rectangle = OriginalPicture.stored(x: x0, y: y0, width: x1 - x0, height: y1 - y0, in: stored, orientation: orientation)
        let (left, top, right, bottom) = (rectangle.x, rectangle.y, rectangle.x + rectangle.width, rectangle.y + rectangle.height)
        let needed = (top / tileHeight...(bottom - 1) / tileHeight).flatMap { row in (left / tileWidth...(right - 1) / tileWidth).map { row * columns + $0 } }
        try decode(needed)
        let tiles = decoded.withLock { held in needed.map { held[$0]! } }
        let width = rectangle.width, height = rectangle.height
        var out = [UInt8](repeating: 0, count: width * height * 3)
        out.withUnsafeMutableBufferPointer { target in
            for (key, tile) in zip(needed, tiles) {
                // The tile's place in the stored picture, and the part of it inside the rectangle.
                let tileX = key % columns * tileWidth, tileY = key / columns * tileHeight
                let fromX = max(left, tileX), toX = min(right, tileX + tile.width), fromY = max(top, tileY), toY = min(bottom, tileY + tile.height)
                guard fromX < toX, fromY < toY else { continue }
                tile.pixels.withUnsafeBufferPointer { source in
                    for y in fromY..<toY {
                        target.baseAddress!.advanced(by: ((y - top) * width + fromX - left) * 3)
                            .update(from: source.baseAddress!.advanced(by: ((y - tileY) * tile.width + fromX - tileX) * 3), count: (toX - fromX) * 3)
                    }
                }
            }
        }
        return PreviewImage(width: width, height: height, pixels: out).oriented(exif: orientation)
    }

    /// Decodes the tiles among `keys` not decoded before, a worker a core, each with its own libheif
    /// context (a file's parse is well under a millisecond, and nothing is shared between threads).
    private func decode(_ keys: [Int]) throws(PreviewError) {
        let missing = decoded.withLock { held in keys.filter { held[$0] == nil } }
        guard !missing.isEmpty else { return }
        let next = Atomic<Int>(0)
        let failure = Mutex<PreviewError?>(nil)
        let workers = min(missing.count, max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8)))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            do throws(PreviewError) {
                try OriginalDecoder.withPrimaryHEIF(bytes, format: format, pixelLimit: Int.max) { (_, handle) throws(PreviewError) -> Void in
                    while failure.withLock({ $0 == nil }) {
                        let index = next.add(1, ordering: .relaxed).oldValue
                        guard index < missing.count else { return }
                        let key = missing[index]
                        let tile = try decodeTile(handle, column: key % columns, row: key / columns)
                        decodes.add(1, ordering: .relaxed)
                        decoded.withLock { $0[key] = tile }
                    }
                }
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// One tile, as stored.
    private func decodeTile(_ handle: OpaquePointer, column: Int, row: Int) throws(PreviewError) -> PreviewImage {
        var image: OpaquePointer?
        let error = try OriginalDecoder.withStrictOptions(asStored: true) {
            heif_image_handle_decode_image_tile(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, $0, UInt32(column), UInt32(row))
        }
        guard error.code == heif_error_Ok, let image else { throw OriginalDecoder.damaged(format, error) }
        defer { heif_image_release(image) }
        let tile = try OriginalDecoder.pixels(of: image, format: format)
        // libheif's whole decode refuses a grid whose tiles differ in size; a region would show holes.
        guard tile.width == tileWidth, tile.height == tileHeight else {
            throw .damaged(format: format.name, reason: "tile \(column),\(row) is \(tile.width)×\(tile.height), not \(tileWidth)×\(tileHeight) as the grid's first")
        }
        return tile
    }
}
