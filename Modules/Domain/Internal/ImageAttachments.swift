/// What an ``Image`` carries besides its pixels, immutable and shared between copies; a
/// change makes a new one, and equality is by contents, so `Image` keeps value semantics.
final class ImageAttachments: Hashable, Sendable {
    let colorProfile: ColorProfile?
    let animation: ImageAnimation?

    private init(colorProfile: ColorProfile?, animation: ImageAnimation?) {
        self.colorProfile = colorProfile
        self.animation = animation
    }

    /// The attachments holding these, or `nil` when there is nothing to hold.
    static func make(colorProfile: ColorProfile?, animation: ImageAnimation?) -> ImageAttachments? {
        colorProfile == nil && animation == nil ? nil : ImageAttachments(colorProfile: colorProfile, animation: animation)
    }

    static func == (lhs: ImageAttachments, rhs: ImageAttachments) -> Bool {
        lhs.colorProfile == rhs.colorProfile && lhs.animation == rhs.animation
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(colorProfile)
        hasher.combine(animation)
    }
}
