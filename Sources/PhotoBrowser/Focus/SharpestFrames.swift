/// "Pick the sharpest of each stack": for every burst among the photos listed, the frame with the best
/// focus score. Bursts are found as stacking finds them (`burst_gap`), whether or not they are stacked.
public struct SharpestFrames: Sendable, Equatable {
    /// The sharpest frame of each burst with a measured frame, as library indices, in list order.
    public var winners: [Int] = []
    /// How many of the winners are picked already.
    public var alreadyPicked = 0
    /// Bursts with some frames not measured yet: their winner is the best of those measured.
    public var partlyMeasured = 0
    /// Bursts with no frame measured: nothing is picked in them.
    public var unmeasured = 0
    /// Bursts whose every frame the loupe measured at 100% over one part of the picture: their winner
    /// is the sharpest there, whatever the renditions' scores say.
    package var judgedAtFullSize = 0

    /// How many bursts there are in all.
    var bursts: Int { winners.count + unmeasured }
}
