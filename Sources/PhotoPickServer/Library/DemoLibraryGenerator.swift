import Foundation

/// Makes the demo library's metadata, deterministically from a seed.
///
/// Photos come in shooting sessions: one body, lens, place and kind of light each, so exposures
/// go together and capture dates cluster the way a real library's do. Images are not made here;
/// only their size in bytes is fixed, and `ImageStore` encodes each one on first request.
struct DemoLibraryGenerator {
    let count: Int
    let seed: UInt64
    let megapixels: Double

    /// 2014-01-01T00:00:00Z; the library spans about eleven years from here.
    static let epoch: Int64 = 1_388_534_400
    static let span: Int64 = 11 * 365 * 86_400

    private struct Light {
        let isos: [Int]
        let shutters: [String]
        let apertures: ClosedRange<Double>
    }

    private static let lights = [
        Light(isos: [100, 125, 160, 200], shutters: ["1/250", "1/500", "1/640", "1/1000", "1/2000"], apertures: 5.6...11),
        Light(isos: [200, 400, 640], shutters: ["1/125", "1/160", "1/250"], apertures: 2.8...5.6),
        Light(isos: [1600, 3200, 6400], shutters: ["1/30", "1/50", "1/60", "1/80"], apertures: 1.4...2.8),
        Light(isos: [100, 200], shutters: ["2", "4", "8", "15", "1/4"], apertures: 8...16),
        Light(isos: [800, 1600, 3200], shutters: ["1/1000", "1/2000", "1/3200"], apertures: 2.8...6.3),
    ]

    private static let fStops: [Double] = [1.4, 1.8, 2, 2.8, 3.5, 4, 4.5, 5.6, 6.3, 7.1, 8, 9, 11, 13, 16]

    /// Calls `body` with every photo in id order, starting at id 1.
    ///
    /// Some frames of a session start a burst: 3 to 7 frames 0.1 to 1 s apart, with the body, lens,
    /// aperture, ISO and focal length of the first and a shutter speed a step either way. Bursts draw
    /// from their own random stream, so the rest of the library is what it was before they existed.
    func forEachPhoto(_ visit: (PhotoRecord) throws -> Void) rethrows {
        var random = SeededRandom(seed: seed)
        var bursts = SeededRandom(seed: seed ^ 0xB0A5, stream: 1)
        var looks = SeededRandom(seed: seed ^ 0x100C, stream: 2)
        var formats = SeededRandom(seed: seed ^ 0xF0A7, stream: 3)
        let meanGap = Double(Self.span) / Double(max(count, 1))
        var clock = Self.epoch * 1000  // milliseconds
        var id = 1
        while id <= count {
            let sessionSize = Int.random(in: 4...60, using: &random)
            let camera = DemoCatalog.bodies.randomElement(using: &random)!
            let lens = DemoCatalog.lenses.filter { $0.mount == camera.mount }.randomElement(using: &random)!
            let light = Self.lights.randomElement(using: &random)!
            let isPhone = camera.mount == "iPhone"
            let place = random.chance(isPhone ? 0.9 : 0.3) ? DemoCatalog.places.randomElement(using: &random) : nil
            var frame = Int.random(in: 1...9000, using: &random)
            var burst: (first: PhotoRecord, left: Int, frame: Int, sharp: Int)?
            let shooting = Self.shooting(camera, random: &formats)
            // In RAW+JPEG sessions, the RAW whose JPEG is the next photo.
            var raw: PhotoRecord?
            for offset in 0..<sessionSize where id <= count {
                let gap = Int64(Double.random(in: 2...(meanGap / 4 + 30), using: &random)) * 1000
                clock += burst == nil ? gap : Int64.random(in: 100...1000, using: &bursts)
                var record = photo(id: id, frame: frame, clock: clock, body: camera, lens: lens, light: light, place: place, random: &random)
                if let current = burst {
                    record = Self.burstFrame(record, after: current.first, clock: clock, light: light, random: &bursts)
                    record = Self.look(record, sharp: current.frame == current.sharp, random: &looks)
                    burst = current.left > 1 ? (current.first, current.left - 1, current.frame + 1, current.sharp) : nil
                } else if shooting != .pairs, sessionSize - offset >= 3, bursts.chance(0.06) {
                    // Cut by the session's end or the library's, so the sharp frame is one that is made.
                    let length = min(Int.random(in: 3...7, using: &bursts), sessionSize - offset, count - id + 1)
                    let sharp = Int.random(in: 0..<length, using: &looks)
                    record = Self.look(record, sharp: sharp == 0, random: &looks)
                    // A burst is one press of the shutter: every frame carries the camera's time, so it stacks.
                    record.takenAt = clock / 1000
                    record.takenAtMilliseconds = Int(clock % 1000)
                    burst = (record, length - 1, 1, sharp)
                } else if looks.chance(0.04) {
                    record.imageDefocus = Double.random(in: 0.0008...0.002, using: &looks)  // now and then a soft one
                }
                switch shooting {
                case .pairs:
                    if let shot = raw {
                        record = Self.jpegTwin(of: shot, record)
                        raw = nil
                    } else {
                        record = Self.recast(record, as: .dng)
                        raw = record
                    }
                case .kind(.jpeg): break
                case .kind(let kind): record = Self.recast(record, as: kind)
                }
                try visit(record)
                // The camera numbers a shot once, its RAW and its JPEG alike.
                if raw == nil { frame += 1 }
                id += 1
            }
            clock += Int64(Double.random(in: 0...(meanGap * Double(sessionSize) * 1.2), using: &random)) * 1000
        }
    }

    /// What a session was shot as: one kind of original, or RAW+JPEG pairs.
    enum Shooting: Equatable {
        case kind(OriginalKind)
        case pairs
    }

    /// Phones write HEIC half the time; cameras shoot RAW+JPEG or RAW now and then (the GR, which writes
    /// DNG itself, more often), and some sessions are PNG exports. From a stream of its own, so the rest
    /// of the library is what it was before originals had kinds.
    private static func shooting(_ body: DemoCatalog.Body, random: inout SeededRandom) -> Shooting {
        let draw = Double.random(in: 0..<1, using: &random)
        if body.mount == "iPhone" { return draw < 0.5 ? .kind(.heic) : .kind(.jpeg) }
        let (pairs, raws) = body.mount == "GR" ? (0.3, 0.2) : (0.1, 0.08)
        if draw < pairs { return .pairs }
        if draw < pairs + raws { return .kind(.dng) }
        if draw < pairs + raws + 0.04 { return .kind(.png) }
        // Exports of other kinds, from the JPEGs' share, so the sessions before are what they were.
        let exports: [OriginalKind] = [.tiff, .webp, .avif]
        for (offset, kind) in exports.enumerated() where draw < pairs + raws + 0.04 + 0.04 * Double(offset + 1) { return .kind(kind) }
        return .kind(.jpeg)
    }

    /// `photo` as an original of `kind`: its type, its name's extension and its weight; a PNG is an
    /// export, at most 2048 pixels long.
    static func recast(_ photo: PhotoRecord, as kind: OriginalKind) -> PhotoRecord {
        var photo = photo
        let bitsPerPixel = Double(photo.bytes - 4096) * 8 / Double(photo.width * photo.height)
        if kind.isExport, max(photo.width, photo.height) > 2048 {
            let scale = 2048 / Double(max(photo.width, photo.height))
            photo.width = max(1, Int((Double(photo.width) * scale).rounded()))
            photo.height = max(1, Int((Double(photo.height) * scale).rounded()))
        }
        photo.mimeType = kind.mimeType
        // A hostile name is kept as it is, for what it tests.
        if DemoCatalog.hostileName(forPhoto: Int(photo.id)) == nil { photo.filename = renamed(photo.filename, to: kind.fileExtension) }
        photo.bytes = kind.bytes(width: photo.width, height: photo.height, bitsPerPixel: bitsPerPixel)
        return photo
    }

    /// The JPEG the camera wrote beside `raw`: the same shot (name, time, scene, settings), its own id,
    /// weight, upload and picture style.
    private static func jpegTwin(of raw: PhotoRecord, _ drawn: PhotoRecord) -> PhotoRecord {
        var twin = raw
        twin.id = drawn.id
        twin.createdAt = drawn.createdAt
        twin.mimeType = OriginalKind.jpeg.mimeType
        // The camera's picture style: its JPEG a touch brighter than the RAW's neutral rendering, so the
        // two are different pictures of one shot, as they are.
        twin.imageGain = raw.imageGain * 1.06
        // A hostile name on either keeps the JPEG's own: not a pair by name, as a renamed file is not.
        let hostile = DemoCatalog.hostileName(forPhoto: Int(raw.id)) != nil || DemoCatalog.hostileName(forPhoto: Int(drawn.id)) != nil
        twin.filename = hostile ? drawn.filename : renamed(raw.filename, to: OriginalKind.jpeg.fileExtension)
        let bitsPerPixel = Double(drawn.bytes - 4096) * 8 / Double(drawn.width * drawn.height)
        twin.bytes = OriginalKind.jpeg.bytes(width: raw.width, height: raw.height, bitsPerPixel: bitsPerPixel)
        return twin
    }

    /// Whether `jpeg` is the JPEG of a RAW+JPEG pair whose RAW is `raw`, the photo before it: one shot.
    static func isPair(_ raw: PhotoRecord, _ jpeg: PhotoRecord) -> Bool {
        raw.mimeType == OriginalKind.dng.mimeType && jpeg.mimeType == OriginalKind.jpeg.mimeType && raw.imageSeed == jpeg.imageSeed
            && raw.takenAt == jpeg.takenAt && raw.takenAtMilliseconds == jpeg.takenAtMilliseconds
    }

    /// Every shot in id order: the photos of `forEachPhoto` but the JPEGs of pairs, whose RAW stands for them.
    func forEachShot(_ visit: (PhotoRecord) throws -> Void) rethrows {
        var previous: PhotoRecord?
        try forEachPhoto { photo in
            defer { previous = photo }
            if let previous, Self.isPair(previous, photo) { return }
            try visit(photo)
        }
    }

    /// `name` with its image extension swapped for `fileExtension`; any other name as it is.
    private static func renamed(_ name: String, to fileExtension: String) -> String {
        guard let dot = name.lastIndex(of: "."),
              ["jpg", "jpeg", "heic", "dng", "png", "tif", "webp", "avif"].contains(name[name.index(after: dot)...].lowercased()) else { return name }
        return name[...dot] + fileExtension
    }

    /// A frame of a burst: the sharp one, or one whose focus missed (a Gaussian blur of 3 to 6 thousandths
    /// of the long edge, three to six pixels of the `web` variant) or that shook (a sideways smear of 1 to
    /// 2% of the long edge).
    private static func look(_ frame: PhotoRecord, sharp: Bool, random: inout SeededRandom) -> PhotoRecord {
        var frame = frame
        if sharp { return frame }
        if random.chance(0.5) {
            frame.imageDefocus = Double.random(in: 0.003...0.006, using: &random)
        } else {
            frame.imageMotion = Double.random(in: 0.01...0.02, using: &random)
        }
        return frame
    }

    /// A later frame of the burst `first` began: its scene and settings, the shutter a step either way and
    /// the exposure with it.
    private static func burstFrame(_ frame: PhotoRecord, after first: PhotoRecord, clock: Int64, light: Light, random: inout SeededRandom) -> PhotoRecord {
        var frame = frame
        frame.width = first.width
        frame.height = first.height
        frame.iso = first.iso
        frame.fNumber = first.fNumber
        frame.focalLength = first.focalLength
        frame.latitude = first.latitude
        frame.longitude = first.longitude
        frame.imageSeed = first.imageSeed
        frame.takenAt = clock / 1000
        frame.takenAtMilliseconds = Int(clock % 1000)
        if let shutter = first.exposureTime, let index = light.shutters.firstIndex(of: shutter) {
            let step = Int.random(in: -1...1, using: &random)
            let shutter = min(max(index + step, 0), light.shutters.count - 1)
            frame.exposureTime = light.shutters[shutter]
            // The shutters are listed slow to fast: a faster one is a third of a stop or so darker.
            frame.imageGain = pow(2, -Double(shutter - index) / 3)
        }
        return frame
    }

    /// The tags each photo starts with, by starting-tag index.
    func startingTags(for photo: PhotoRecord) -> [Int] {
        var random = SeededRandom(seed: seed ^ 0x7A65, stream: UInt64(photo.id))
        var tags: [Int] = []
        if random.chance(0.08) { tags.append(0) }
        if random.chance(0.05) { tags.append(1) }
        if random.chance(0.03) { tags.append(2) }
        if photo.cameraMake == "Apple", random.chance(0.4) { tags.append(3) }
        if photo.latitude != nil, random.chance(0.3) { tags.append(4) }
        if random.chance(0.05) { tags.append(5) }
        if random.chance(0.04) { tags.append(6) }
        return tags
    }

    private func photo(
        id: Int, frame: Int, clock: Int64, body: DemoCatalog.Body, lens: DemoCatalog.Lens,
        light: Light, place: DemoCatalog.Place?, random: inout SeededRandom
    ) -> PhotoRecord {
        let isPortrait = random.chance(0.25)
        let aspect = random.chance(0.05) ? 16.0 / 9.0 : body.aspect
        let longEdge = Int((megapixels * 1_000_000 * aspect).squareRoot().rounded())
        let shortEdge = max(1, Int((Double(longEdge) / aspect).rounded()))
        let focal = lens.focal.lowerBound == lens.focal.upperBound
            ? lens.focal.lowerBound
            : Double(Int.random(in: Int(lens.focal.lowerBound)...Int(lens.focal.upperBound), using: &random))
        let apertures = Self.fStops.filter { $0 >= lens.maxAperture && light.apertures.contains($0) }
        let fNumber = apertures.randomElement(using: &random) ?? max(lens.maxAperture, light.apertures.lowerBound)
        // A realistic JPEG weighs about 3 bits per pixel, give or take.
        let bitsPerPixel = min(max(random.normal(mean: 3.1, deviation: 0.7), 1.6), 5.5)
        let bytes = Int64(Double(longEdge * shortEdge) * bitsPerPixel / 8) + 4096
        let hasDate = !random.chance(0.02)
        let seconds = clock / 1000
        let uploaded = seconds + Int64.random(in: 3600...(30 * 86_400), using: &random)
        let jitter = { (random: inout SeededRandom) in Double.random(in: -0.05...0.05, using: &random) }
        return PhotoRecord(
            id: Int64(id),
            filename: filename(id: id, frame: frame, body: body, random: &random),
            bytes: bytes,
            takenAt: hasDate ? seconds : nil,
            createdAt: uploaded,
            width: isPortrait ? shortEdge : longEdge,
            height: isPortrait ? longEdge : shortEdge,
            mimeType: "image/jpeg",
            cameraMake: body.make,
            cameraModel: body.model,
            lens: lens.name,
            iso: light.isos.randomElement(using: &random),
            fNumber: fNumber,
            exposureTime: light.shutters.randomElement(using: &random),
            focalLength: focal,
            latitude: place.map { $0.latitude + jitter(&random) },
            longitude: place.map { $0.longitude + jitter(&random) },
            title: random.chance(0.2) ? DemoCatalog.titles.randomElement(using: &random) : nil,
            description: random.chance(0.1) ? DemoCatalog.descriptions.randomElement(using: &random) : nil,
            imageSeed: Int64(bitPattern: random.next()),
            takenAtMilliseconds: hasDate ? Int(clock % 1000) : 0
        )
    }

    private func filename(id: Int, frame: Int, body: DemoCatalog.Body, random: inout SeededRandom) -> String {
        if let hostile = DemoCatalog.hostileName(forPhoto: id) { return hostile }
        if random.chance(0.08) {
            let name = DemoCatalog.unicodeNames.randomElement(using: &random)!
            return "\(name) \(frame % 1000).jpg"
        }
        return body.filePattern(frame)
    }
}
