@testable import PhotoBrowser
import Testing
@testable import PhotoPickCommands

struct TableTests {
    @Test func tagsTableLinesUpWideNamesByDisplayWidth() {
        let tags = [
            TagsCommand.ListedTag(id: 1, name: "東京", color: "#e94b60", photos: 3, mark: nil),
            TagsCommand.ListedTag(id: 2, name: "🌅 sunset", color: nil, photos: 12, mark: nil),
            TagsCommand.ListedTag(id: 3, name: "Print", color: "#22c55e", photos: 100, mark: nil),
        ]
        let lines = TagsCommand.table(tags)
        #expect(lines == [
            "NAME       COLOUR    PHOTOS",
            "東京       #e94b60        3",
            "🌅 sunset  —             12",
            "Print      #22c55e      100",
        ])
    }

}
