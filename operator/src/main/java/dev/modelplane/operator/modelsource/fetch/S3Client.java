package dev.modelplane.operator.modelsource.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a model from any S3-compatible service (AWS S3, MinIO, Ceph RGW, versitygw, …) with path-style addressing
 * and SigV4 signing: ListObjectsV2 (following continuation tokens, one page in memory at a time, at most a set
 * number of objects kept) for the files under the prefix, HEAD for one
 * object, GET with {@code Range} for content. Object keys become paths relative to the prefix.
 */
public final class S3Client implements ModelFileSource {
  private static final Logger LOG = LoggerFactory.getLogger(S3Client.class);
  /** Objects a listing holds at most unless told otherwise. */
  public static final int DEFAULT_MAX_OBJECTS = 100_000;

  private final S3Settings settings;
  private final HttpSender sender;
  private final SigV4Signer signer;
  private final Clock clock;
  private final int maxObjects;

  public S3Client(S3Settings settings) {
    this(settings, DEFAULT_MAX_OBJECTS);
  }

  /** A client whose {@link #list()} fails, without asking for further pages, past {@code maxObjects} objects. */
  public S3Client(S3Settings settings, int maxObjects) {
    this(settings, new HttpSender(settings.timeout()), Clock.systemUTC(), maxObjects);
  }

  S3Client(S3Settings settings, HttpSender sender, Clock clock) {
    this(settings, sender, clock, DEFAULT_MAX_OBJECTS);
  }

  S3Client(S3Settings settings, HttpSender sender, Clock clock, int maxObjects) {
    this.maxObjects = ListingGuard.limit(maxObjects);
    this.settings = settings;
    this.sender = sender;
    this.clock = clock;
    this.signer = settings.signed() ? new SigV4Signer(settings.accessKey(), settings.secretKey(),
        settings.sessionToken().orElse(null), settings.region(), "s3") : null;
  }

  /** The settings this client reads with. */
  public S3Settings settings() {
    return settings;
  }

  @Override
  public String describe() {
    return "s3://" + settings.bucket() + "/" + settings.prefix();
  }

  /** S3 objects have no commit: always empty. */
  @Override
  public Optional<String> revision() {
    return Optional.empty();
  }

  @Override
  public List<RemoteFile> list() throws IOException {
    String keyPrefix = settings.keyPrefix();
    String origin = HttpSender.origin(settings.endpoint());
    ListingGuard listing = new ListingGuard(describe(), origin, keyPrefix, maxObjects,
        "objects under prefix '" + keyPrefix + "' in S3 bucket '" + settings.bucket() + "'");
    String token = null;
    while (true) {
      listing.page();
      List<Map.Entry<String, String>> query = new ArrayList<>();
      query.add(Map.entry("list-type", "2"));
      query.add(Map.entry("max-keys", Integer.toString(settings.pageSize())));
      query.add(Map.entry("prefix", keyPrefix));
      if (token != null) {
        query.add(Map.entry("continuation-token", token));
      }
      HttpResponse<InputStream> response = send("GET", "/" + settings.bucket(), query, Map.of());
      String body = HttpSender.readSmall(response);
      if (response.statusCode() != 200) {
        throw S3Errors.of(response.statusCode(), S3Xml.error(body), settings, null);
      }
      S3Xml.ListPage page = S3Xml.listPage(body);
      for (S3Xml.Entry entry : page.entries()) {
        String path = listing.relative(entry.key());
        if (path != null) {
          listing.add(new RemoteFile(path, entry.size(), Optional.empty(),
              Optional.of(entry.etag()).filter(e -> !e.isEmpty())));
        }
      }
      if (!page.truncated()) {
        break;
      }
      token = listing.next(page.nextContinuationToken(), token, "a truncated page without a new continuation token");
    }
    List<RemoteFile> files = listing.files("no objects under prefix '" + keyPrefix + "' in S3 bucket '"
        + settings.bucket() + "' at " + origin);
    LOG.info("fetch.s3.listed bucket={} prefix={} files={} bytes={}", settings.bucket(), keyPrefix, files.size(),
        ListingGuard.bytes(files));
    return files;
  }

  /** The size and ETag of one object, by its path relative to the prefix. */
  public RemoteFile head(String relativePath) throws IOException {
    HttpResponse<InputStream> response = send("HEAD", objectPath(relativePath), List.of(), Map.of());
    HttpSender.discard(response);
    if (response.statusCode() != 200) {
      // A HEAD answer has no body, so the status is all there is to go by.
      throw S3Errors.of(response.statusCode(), new S3Xml.Error(response.statusCode() == 404 ? "NoSuchKey" : "", ""),
          settings, relativePath);
    }
    long size = response.headers().firstValueAsLong("Content-Length").orElse(-1);
    if (size < 0) {
      throw new FetchException(FetchException.Kind.INVALID, "HEAD of '" + relativePath + "' in " + describe()
          + " answered without a Content-Length");
    }
    return new RemoteFile(relativePath, size, Optional.empty(),
        response.headers().firstValue("ETag").map(e -> e.replace("\"", "")));
  }

  @Override
  public RemoteStream open(RemoteFile file, long offset) throws IOException {
    Map<String, String> headers = offset > 0 ? Map.of("Range", "bytes=" + offset + "-") : Map.of();
    HttpResponse<InputStream> response = send("GET", objectPath(file.path()), List.of(), headers);
    return RangedAnswer.stream(response, offset, HttpSender.origin(settings.endpoint()), "'" + file.path() + "'",
        r -> S3Errors.of(r.statusCode(), S3Xml.error(HttpSender.readSmall(r)), settings, file.path()));
  }

  /**
   * Sends a signed request with an empty body to {@code path} (not yet encoded) under the endpoint. Package-visible
   * so tests can create buckets and objects with the same signing.
   */
  HttpResponse<InputStream> send(String method, String path, List<Map.Entry<String, String>> query,
      Map<String, String> headers) throws FetchException {
    return send(method, path, query, headers, new byte[0]);
  }

  HttpResponse<InputStream> send(String method, String path, List<Map.Entry<String, String>> query,
      Map<String, String> headers, byte[] body) throws FetchException {
    URI endpoint = settings.endpoint();
    String fullPath = endpoint.getRawPath() + SigV4Signer.uriEncode(path, false);
    String rawQuery = SigV4Signer.canonicalQuery(query);
    URI uri = URI.create(endpoint.getScheme() + "://" + endpoint.getRawAuthority() + fullPath
        + (rawQuery.isEmpty() ? "" : "?" + rawQuery));
    Map<String, String> all = new LinkedHashMap<>(headers);
    if (signer != null) {
      String host = endpoint.getHost() + (endpoint.getPort() >= 0 ? ":" + endpoint.getPort() : "");
      // The signer encodes the path the same way as the URI above; it must see it decoded.
      String decodedPath = endpoint.getPath() + path;
      all.putAll(signer.sign(new SigV4Signer.Request(method, host, decodedPath, query, headers,
          SigV4Signer.sha256Hex(body)), clock.instant()));
    }
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(settings.timeout())
        .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    all.forEach(builder::header);
    return sender.send(builder.build());
  }

  private String objectPath(String relativePath) {
    return "/" + settings.bucket() + "/" + settings.keyPrefix() + relativePath;
  }
}
