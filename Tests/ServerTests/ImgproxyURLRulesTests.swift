import Foundation
@testable import OspreyServer
import Testing

/// imgproxy's URL settings, on its own examples and tests.
struct ImgproxyURLRulesTests {
    @Test func replacementsRewriteSourcePrefixesInTurn() throws {
        var rules = ImgproxyURLRules()
        rules.replacements = try #require(ImgproxyURLRules.replacements("test://*/=test2://images.dev/${1}/dolor/;test2://=http://"))
        #expect(rules.replacingPrefix(of: "test://lorem/ipsum.jpg?param=value") == "http://images.dev/lorem/dolor/ipsum.jpg?param=value",
                "imgproxy's TestParseBase64URLWithReplacement")
        rules.replacements = try #require(ImgproxyURLRules.replacements("mys3://=s3://my_bucket/images/"))
        #expect(rules.replacingPrefix(of: "mys3://image01.jpg") == "s3://my_bucket/images/image01.jpg", "imgproxy's docs")
        #expect(rules.replacingPrefix(of: "https://mys3://x") == "https://mys3://x", "a prefix only")
        rules.replacements = try #require(ImgproxyURLRules.replacements("cdn://*-*/=https://${2}.example/${1}/"))
        #expect(rules.replacingPrefix(of: "cdn://a-b-c/x.jpg") == "https://c.example/a-b/x.jpg", "a star takes the longest run that lets the rest match")
        #expect(ImgproxyURLRules.replacements("no-equals-sign") == nil)
    }

    @Test func pathsAreReadWithTheRulesGiven() throws {
        var rules = ImgproxyURLRules()
        rules.argumentsSeparator = ","
        rules.base64IncludesFilename = true
        rules.allowedOptions = ["rs", "q"]
        let source = Data("http://images.dev/lorem/ipsum.jpg".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let path = try ImgproxyPath("/insecure/rs,fill,100,50/q,70/\(source).png/puppy.jpg", rules: rules)
        #expect(path.source.absoluteString == "http://images.dev/lorem/ipsum.jpg" && path.options.width == 100 && path.options.height == 50)
        #expect(path.options.format == .png, "the extension before the file name")
        #expect(throws: ImgproxyError.self) { try ImgproxyPath("/insecure/bl,5/\(source).png", rules: rules) }
        #expect(throws: ImgproxyError.self, "an option named by its other name is another name") { try ImgproxyPath("/insecure/resize,fit,10,10/\(source)", rules: rules) }
        let plain = try ImgproxyPath("/insecure/q,40/plain/http://a.example/photos/b.jpg", rules: rules)
        #expect(plain.source.absoluteString == "http://a.example/photos/b.jpg", "a plain source keeps its last segment")
    }
}
