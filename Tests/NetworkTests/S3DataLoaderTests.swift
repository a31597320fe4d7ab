import Foundation
import OspreyDomain
@testable import OspreyNetwork
import OspreyTesting
import Testing

/// `s3://` objects: how they are addressed, their versions, and buckets in another region.
@Suite("S3DataLoader", .serialized, .timeLimit(.minutes(Sanitizer.scaled(2))))
struct S3DataLoaderTests {
    typealias World = AWSCredentialSourcesTests

    @Test func aVersionIDAsksForThatVersion() async throws {
        let (s3, endpoints, base) = try World.world()
        defer { s3.stop(); endpoints.stop() }
        let old = try s3.put(Data("first".utf8), at: "v.jpg", in: "photos")
        _ = try s3.put(Data("second".utf8), at: "v.jpg", in: "photos")
        let chain = try AWSCredentialChain(environment: base.merging(["AWS_ACCESS_KEY_ID": s3.accessKeyID, "AWS_SECRET_ACCESS_KEY": s3.secretAccessKey]) { $1 })
        #expect(try await World.load("s3://photos/v.jpg", from: s3, with: chain) == Data("second".utf8))
        #expect(try await World.load("s3://photos/v.jpg?\(old)", from: s3, with: chain) == Data("first".utf8))
    }

    @Test func bucketsAreAddressedInThePathOrTheHostName() throws {
        let location = try S3Location(URL(string: "s3://photos/2026/a%20b.jpg?v%2B1")!)
        let credentials = AWSCredentials(accessKeyID: "AKID", secretAccessKey: "secret")
        let path = try S3DataLoader.Store(endpoint: URL(string: "https://s3.eu-west-1.amazonaws.com")!, region: "eu-west-1", credentials: credentials)
        #expect(path.objectURL(for: location).absoluteString == "https://s3.eu-west-1.amazonaws.com/photos/2026/a%20b.jpg?versionId=v%2B1")
        let host = try S3DataLoader.Store(endpoint: URL(string: "https://s3.eu-west-1.amazonaws.com/")!, region: "eu-west-1",
                                          credentials: credentials, pathStyle: false)
        #expect(host.objectURL(for: location).absoluteString == "https://photos.s3.eu-west-1.amazonaws.com/2026/a%20b.jpg?versionId=v%2B1")
        #expect(location.versionID == "v+1" && location.url.absoluteString == "s3://photos/2026/a%20b.jpg?v%2B1")
    }

    @Test func accessPointNamesStandForAnARNsHostOrAnotherBucket() async throws {
        let location = try S3Location(URL(string: "s3://images/2026/a%20b.jpg?v%2B1")!)
        let point = try #require(S3AccessPoint(arn: "arn:aws:s3:us-east-2:123456789012:accesspoint/Images"))
        #expect(point.url(for: location).absoluteString
                == "https://images-123456789012.s3-accesspoint.us-east-2.amazonaws.com/2026/a%20b.jpg?versionId=v%2B1")
        #expect(point.region == "us-east-2")
        #expect(S3AccessPoint(arn: "arn:aws-cn:s3:cn-north-1:123456789012:accesspoint:cn-images")?.url(for: location).host
                == "cn-images-123456789012.s3-accesspoint.cn-north-1.amazonaws.com.cn")
        for refused in ["arn:aws:s3:::photos", "arn:aws:s3-object-lambda:us-east-1:1:accesspoint/a", "arn:aws:s3:us-east-1:1:accesspoint/a.b/c",
                        "photos", "arn:aws:s3:us-east-1:1:outpost/op-1/accesspoint/a"] {
            #expect(S3AccessPoint(arn: refused) == nil, "\(refused)")
        }
        // A name that stands for another bucket is read from that bucket (imgproxy's own test).
        let (s3, endpoints, _) = try World.world()
        defer { s3.stop(); endpoints.stop() }
        var store = try S3DataLoader.Store(endpoint: URL(string: s3.endpoint)!, region: "us-east-1",
                                           credentials: AWSCredentials(accessKeyID: s3.accessKeyID, secretAccessKey: s3.secretAccessKey))
        store.accessPoints = ["my-point": "photos"]
        let loader = S3DataLoader(store: store, network: CurlDataLoader())
        #expect(try await loader.loadData(for: DataRequest(url: URL(string: "s3://my-point/a.jpg")!)).data == World.photo)
    }

    @Test func aBucketInAnotherRegionIsAskedThereOnceFound() async throws {
        let endpoints = try AWSEndpointFakes(.init(accessKeyID: "AKID", secretAccessKey: "secret", sessionToken: "t", expiresIn: 3600))
        defer { endpoints.stop() }
        let credentials = AWSCredentials(accessKeyID: "AKIDOSPREY", secretAccessKey: "secret")
        let store = try S3DataLoader.Store(endpoint: URL(string: endpoints.url + "/regional")!, region: "us-east-1", credentials: credentials)
        let loader = S3DataLoader(store: store, network: CurlDataLoader())
        for _ in 0..<2 {
            let object = try await loader.loadData(for: DataRequest(url: URL(string: "s3://photos/a.jpg")!))
            #expect(String(decoding: object.data, as: UTF8.self) == "the object in its region")
        }
        #expect(try endpoints.hits()["s3 redirected"] == 2, "the first GET and the HEAD that names the region; then none")
        #expect(try endpoints.hits()["s3 answered"] == 2)
        #expect(try endpoints.hits()["s3 heads"] == 1, "the region asked with a HEAD, not a GET of the bucket")

        let aws = try S3DataLoader.Store.aws(region: "us-east-1", credentials: credentials)
        let location = try S3Location(URL(string: "s3://photos/a.jpg")!)
        #expect(aws.objectURL(for: location, in: "eu-west-1").absoluteString == "https://s3.eu-west-1.amazonaws.com/photos/a.jpg",
                "AWS's own endpoint follows the bucket's region; an endpoint given does not")
        #expect(store.objectURL(for: location, in: "eu-west-1") == store.objectURL(for: location))
    }
}
