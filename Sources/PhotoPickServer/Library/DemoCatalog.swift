/// The raw material of the demo library: gear, places, names and tags.
enum DemoCatalog {
    struct Body: Sendable {
        let make: String
        let model: String
        let mount: String
        let aspect: Double
        let filePattern: @Sendable (Int) -> String
    }

    struct Lens: Sendable {
        let name: String?
        let mount: String
        let focal: ClosedRange<Double>
        let maxAperture: Double
    }

    struct Place: Sendable {
        let name: String
        let latitude: Double
        let longitude: Double
    }

    static let bodies: [Body] = [
        Body(make: "Canon", model: "Canon EOS R6 Mark II", mount: "RF", aspect: 1.5) { "IMG_\(pad($0 % 10000, 4)).JPG" },
        Body(make: "NIKON CORPORATION", model: "NIKON Z 6_2", mount: "Z", aspect: 1.5) { "DSC_\(pad($0 % 10000, 4)).JPG" },
        Body(make: "SONY", model: "ILCE-7M4", mount: "E", aspect: 1.5) { "DSC\(pad($0 % 100000, 5)).JPG" },
        Body(make: "FUJIFILM", model: "X-T5", mount: "X", aspect: 1.5) { "DSCF\(pad($0 % 10000, 4)).JPG" },
        Body(make: "Apple", model: "iPhone 15 Pro", mount: "iPhone", aspect: 4.0 / 3.0) { "IMG_\(pad($0 % 10000, 4)).jpg" },
        Body(make: "RICOH IMAGING COMPANY, LTD.", model: "RICOH GR III", mount: "GR", aspect: 1.5) { "R00\(pad($0 % 100000, 5)).JPG" },
        Body(make: "OM Digital Solutions", model: "OM-1", mount: "MFT", aspect: 4.0 / 3.0) { "P\(pad($0 % 10_000_000, 7)).JPG" },
    ]

    static let lenses: [Lens] = [
        Lens(name: "RF24-105mm F4 L IS USM", mount: "RF", focal: 24...105, maxAperture: 4),
        Lens(name: "RF50mm F1.8 STM", mount: "RF", focal: 50...50, maxAperture: 1.8),
        Lens(name: "RF100-500mm F4.5-7.1 L IS USM", mount: "RF", focal: 100...500, maxAperture: 4.5),
        Lens(name: "NIKKOR Z 24-70mm f/4 S", mount: "Z", focal: 24...70, maxAperture: 4),
        Lens(name: "NIKKOR Z 85mm f/1.8 S", mount: "Z", focal: 85...85, maxAperture: 1.8),
        Lens(name: "FE 35mm F1.4 GM", mount: "E", focal: 35...35, maxAperture: 1.4),
        Lens(name: "FE 70-200mm F2.8 GM OSS II", mount: "E", focal: 70...200, maxAperture: 2.8),
        Lens(name: "XF16-55mmF2.8 R LM WR", mount: "X", focal: 16...55, maxAperture: 2.8),
        Lens(name: "XF23mmF1.4 R LM WR", mount: "X", focal: 23...23, maxAperture: 1.4),
        Lens(name: "iPhone 15 Pro back triple camera 6.86mm f/1.78", mount: "iPhone", focal: 6.86...6.86, maxAperture: 1.78),
        Lens(name: nil, mount: "GR", focal: 18.3...18.3, maxAperture: 2.8),
        Lens(name: "M.Zuiko Digital ED 12-40mm F2.8 PRO II", mount: "MFT", focal: 12...40, maxAperture: 2.8),
        Lens(name: "M.Zuiko Digital ED 150-400mm F4.5 TC1.25x IS PRO", mount: "MFT", focal: 150...400, maxAperture: 4.5),
    ]

    static let places: [Place] = [
        Place(name: "Praha", latitude: 50.0875, longitude: 14.4213),
        Place(name: "Brno", latitude: 49.1951, longitude: 16.6068),
        Place(name: "Český Krumlov", latitude: 48.8127, longitude: 14.3175),
        Place(name: "Vysoké Tatry", latitude: 49.1795, longitude: 20.0882),
        Place(name: "東京", latitude: 35.6762, longitude: 139.6503),
        Place(name: "京都", latitude: 35.0116, longitude: 135.7681),
        Place(name: "Reykjavík", latitude: 64.1466, longitude: -21.9426),
        Place(name: "Lisboa", latitude: 38.7223, longitude: -9.1393),
        Place(name: "New York", latitude: 40.7128, longitude: -74.0060),
        Place(name: "Cape Town", latitude: -33.9249, longitude: 18.4241),
    ]

    /// Names people really give photos, in Czech, Japanese, Korean, Chinese and with emoji.
    static let unicodeNames = [
        "Žluťoučký kůň úpěl ďábelské ódy", "Praha – Karlův most", "Řeřicha na zahradě", "Čeněk a Šárka u řeky",
        "Dovolená v Tatrách", "Večerní Vltava", "東京タワー夜景", "京都の紅葉", "서울 야경", "北京故宫", "富士山と桜",
        "🌅 západ slunce", "🐈 Micka spí", "👨‍👩‍👧 rodina na chalupě", "🎉 oslava 🎂", "🏔️ Lomnický štít",
    ]

    /// Hostile names real libraries contain; clients must survive every one.
    static let hostileNames: [String] = [
        "\u{1B}[31mRED\u{1B}[0m alert.jpg",
        "../../../etc/passwd",
        "..\\..\\Windows\\System32\\drivers.jpg",
        "long-" + String(repeating: "ř", count: 145) + "x.jpg",
        String(repeating: "a", count: 296) + ".jpg",
        "bell\u{07}back\u{08}space\r\nnew line.jpg",
        ".hidden.jpg",
        "holiday.jpg.exe",
        "sub/dir/name.jpg",
        "\u{202E}gpj.exe",
        "\u{1B}]0;owned\u{07}title.jpg",
        "snapshot.",
        "IMG 0001.J P G",
        "tab\there\u{7F}.jpeg",
    ]

    /// Photo ids that carry the hostile names, so every library of a few hundred photos has them all.
    static func hostileName(forPhoto id: Int) -> String? {
        guard id % 37 == 5 else { return nil }
        let index = id / 37
        return index < hostileNames.count ? hostileNames[index] : nil
    }

    static let titles = [
        "Morning fog over the Vltava", "Karlštejn at dusk", "Street market", "First snow", "Harbour lights",
        "Portrait of Jana", "Old tram", "Golden hour on the ridge", "Rainy window", "Kids in the meadow",
    ]

    static let descriptions = [
        "Shot handheld from the bridge just after sunrise.",
        "Tripod, two-second timer, mirror up.",
        "Edited for print: lifted shadows, warmer white balance.",
        "Client selection, second round.",
    ]

    struct StartingTag: Sendable {
        let name: String
        let color: String?
    }

    static let startingTags = [
        StartingTag(name: "Favourite", color: "#e94b60"),
        StartingTag(name: "Portfolio", color: "#3b82f6"),
        StartingTag(name: "Print", color: "#22c55e"),
        StartingTag(name: "Family", color: "#f59e0b"),
        StartingTag(name: "Travel", color: "#8b5cf6"),
        StartingTag(name: "Reject", color: "#6b7280"),
        StartingTag(name: "To edit", color: nil),
    ]

    private static func pad(_ number: Int, _ width: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
