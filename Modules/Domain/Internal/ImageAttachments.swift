/// What an ``Image`` carries besides its pixels, immutable and shared between copies; a
/// change makes a new one, and equality is by contents, so `Image` keeps value semantics.
final class ImageAttachments: Hashable, Sendable {
    let colorProfile: ColorProfile?
    let colorCodePoints: ColorCodePoints?
    let animation: ImageAnimation?
    let metadata: ImageMetadata?

    private init(colorProfile: ColorProfile?, colorCodePoints: ColorCodePoints?, animation: ImageAnimation?, metadata: ImageMetadata?) {
        self.colorProfile = colorProfile
        self.colorCodePoints = colorCodePoints
        self.animation = animation
        self.metadata = metadata
    }

    /// The attachments holding these, or `nil` when there is nothing to hold.
    static func make(colorProfile: ColorProfile?, colorCodePoints: ColorCodePoints?, animation: ImageAnimation?, metadata: ImageMetadata?) -> ImageAttachments? {
        let metadata = metadata?.isEmpty == true ? nil : metadata
        return colorProfile == nil && colorCodePoints == nil && animation == nil && metadata == nil
            ? nil : ImageAttachments(colorProfile: colorProfile, colorCodePoints: colorCodePoints, animation: animation, metadata: metadata)
    }

    static func == (lhs: ImageAttachments, rhs: ImageAttachments) -> Bool {
        lhs.colorProfile == rhs.colorProfile && lhs.colorCodePoints == rhs.colorCodePoints && lhs.animation == rhs.animation && lhs.metadata == rhs.metadata
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(colorProfile)
        hasher.combine(colorCodePoints)
        hasher.combine(animation)
        hasher.combine(metadata)
    }
}
