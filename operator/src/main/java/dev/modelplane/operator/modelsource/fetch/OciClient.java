package dev.modelplane.operator.modelsource.fetch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * Reads a model from OCI Object Storage with signed requests ({@link OciSigner}): ListObjects (following
 * {@code nextStartWith}, one page in memory at a time, at most a set number of objects kept) for the files under the
 * prefix, HEAD for one object, GET with {@code Range} for content. Object names become paths relative to the prefix;
 * each file carries the MD5 OCI announces, except for multipart uploads, whose {@code <md5>-<parts>} is no checksum of
 * the content (their size is still checked).
 */
public final class OciClient implements ModelFileSource {
  private static final Logger LOG = LoggerFactory.getLogger(OciClient.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Objects a listing holds at most unless told otherwise. */
  public static final int DEFAULT_MAX_OBJECTS = 100_000;

  private final OciSettings settings;
  private final HttpSender sender;
  private final Clock clock;
  private final int maxObjects;

  /** A client whose {@link #list()} fails, without asking for further pages, past {@code maxObjects} objects. */
  public OciClient(OciSettings settings, int maxObjects) {
    this(settings, new HttpSender(settings.timeout()), Clock.systemUTC(), maxObjects);
  }

  OciClient(OciSettings settings, HttpSender sender, Clock clock, int maxObjects) {
    this.settings = settings;
    this.sender = sender;
    this.clock = clock;
    this.maxObjects = ListingGuard.limit(maxObjects);
  }

  /** The settings this client reads with. */
  public OciSettings settings() {
    return settings;
  }

  @Override
  public String describe() {
    return settings.describe();
  }

  /** Objects have no commit: always empty. */
  @Override
  public Optional<String> revision() {
    return Optional.empty();
  }

  @Override
  public List<RemoteFile> list() throws IOException {
    String objectPrefix = settings.objectPrefix();
    String origin = HttpSender.origin(settings.endpoint());
    ListingGuard listing = new ListingGuard(describe(), origin, objectPrefix, maxObjects,
        "objects under prefix '" + objectPrefix + "' in OCI bucket '" + settings.bucket() + "'");
    String start = null;
    while (true) {
      listing.page();
      List<Map.Entry<String, String>> query = new ArrayList<>();
      query.add(Map.entry("prefix", objectPrefix));
      query.add(Map.entry("fields", "name,size,md5,etag"));
      query.add(Map.entry("limit", Integer.toString(settings.pageSize())));
      if (start != null) {
        query.add(Map.entry("start", start));
      }
      HttpResponse<InputStream> response = send("GET", bucketPath() + "/o", query);
      String body = HttpSender.readSmall(response);
      if (response.statusCode() != 200) {
        throw OciErrors.of(response.statusCode(), OciErrors.parse(body), settings, null);
      }
      JsonNode page = parse(body);
      for (JsonNode object : page.path("objects")) {
        String path = listing.relative(object.path("name").asText(""));
        if (path != null) {
          listing.add(file(path, object));
        }
      }
      String next = page.path("nextStartWith").asText("");
      if (next.isEmpty()) {
        break;
      }
      start = listing.next(next, start, "the same nextStartWith twice");
    }
    List<RemoteFile> files = listing.files("no objects under prefix '" + objectPrefix + "' in OCI bucket '"
        + settings.bucket() + "' in namespace '" + settings.namespace() + "' at " + origin);
    LOG.info("fetch.oci.listed namespace={} bucket={} prefix={} files={} bytes={}", settings.namespace(),
        settings.bucket(), objectPrefix, files.size(), ListingGuard.bytes(files));
    return files;
  }

  /** The size, ETag and MD5 of one object, by its path relative to the prefix. */
  public RemoteFile head(String relativePath) throws IOException {
    HttpResponse<InputStream> response = send("HEAD", objectPath(relativePath), List.of());
    HttpSender.discard(response);
    if (response.statusCode() != 200) {
      // A HEAD answer has no body, so the status is all there is to go by.
      throw OciErrors.of(response.statusCode(), new OciErrors.Error(response.statusCode() == 404 ? "ObjectNotFound"
          : "", ""), settings, relativePath);
    }
    long size = response.headers().firstValueAsLong("Content-Length").orElse(-1);
    if (size < 0) {
      throw new FetchException(FetchException.Kind.INVALID, "HEAD of '" + relativePath + "' in " + describe()
          + " answered without a Content-Length");
    }
    return RemoteFile.withChecksum(relativePath, size, response.headers().firstValue("ETag"),
        md5(relativePath, response.headers().firstValue("opc-content-md5").orElse("")));
  }

  @Override
  public RemoteStream open(RemoteFile file, long offset) throws IOException {
    Map<String, String> headers = offset > 0 ? Map.of("Range", "bytes=" + offset + "-") : Map.of();
    HttpResponse<InputStream> response = send("GET", objectPath(file.path()), List.of(), headers);
    return RangedAnswer.stream(response, offset, HttpSender.origin(settings.endpoint()), "'" + file.path() + "'",
        r -> OciErrors.of(r.statusCode(), OciErrors.parse(HttpSender.readSmall(r)), settings, file.path()));
  }

  private RemoteFile file(String path, JsonNode object) throws FetchException {
    JsonNode size = object.path("size");
    if (!size.canConvertToLong() || size.asLong() < 0) {
      throw new FetchException(FetchException.Kind.INVALID, "listing " + describe() + ": object '" + path
          + "' has no valid size");
    }
    Optional<String> etag = Optional.of(object.path("etag").asText("")).filter(e -> !e.isEmpty());
    return RemoteFile.withChecksum(path, size.asLong(), etag, md5(path, object.path("md5").asText("")));
  }

  /** The MD5 of a plain upload; none for a multipart upload's {@code <md5 of part md5s>-<parts>} or no value. */
  private Optional<ContentChecksum> md5(String path, String value) throws FetchException {
    if (value.isBlank() || value.contains("-")) {
      return Optional.empty();
    }
    try {
      return Optional.of(ContentChecksum.ofBase64(ContentChecksum.Algorithm.MD5, value));
    } catch (IllegalArgumentException e) {
      throw new FetchException(FetchException.Kind.INVALID, describe() + ": object '" + path + "' has an invalid "
          + "md5 '" + value + "'");
    }
  }

  private JsonNode parse(String body) throws FetchException {
    try {
      JsonNode node = JSON.readTree(body);
      if (node != null && node.isObject() && node.path("objects").isArray()) {
        return node;
      }
    } catch (IOException e) {
      // reported below
    }
    throw new FetchException(FetchException.Kind.INVALID, "listing " + describe() + " at "
        + HttpSender.origin(settings.endpoint()) + ": the answer is not a ListObjects JSON document");
  }

  private String bucketPath() {
    return "/n/" + SigV4Signer.uriEncode(settings.namespace(), true) + "/b/"
        + SigV4Signer.uriEncode(settings.bucket(), true);
  }

  /** The encoded path of an object: its name is one path segment, {@code /} encoded as OCI's SDKs do. */
  private String objectPath(String relativePath) {
    return bucketPath() + "/o/" + SigV4Signer.uriEncode(settings.objectPrefix() + relativePath, true);
  }

  private HttpResponse<InputStream> send(String method, String rawPath, List<Map.Entry<String, String>> query)
      throws FetchException {
    return send(method, rawPath, query, Map.of());
  }

  /** Sends a signed request without a body to {@code rawPath} (already encoded) under the endpoint. */
  private HttpResponse<InputStream> send(String method, String rawPath, List<Map.Entry<String, String>> query,
      Map<String, String> headers) throws FetchException {
    URI endpoint = settings.endpoint();
    List<String> pairs = new ArrayList<>();
    for (Map.Entry<String, String> e : query) {
      pairs.add(SigV4Signer.uriEncode(e.getKey(), true) + "=" + SigV4Signer.uriEncode(e.getValue(), true));
    }
    URI uri = URI.create(endpoint.getScheme() + "://" + endpoint.getRawAuthority() + endpoint.getRawPath() + rawPath
        + (pairs.isEmpty() ? "" : "?" + String.join("&", pairs)));
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.putAll(settings.signer().sign(method, uri, headers, new byte[0], clock.instant()));
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(settings.timeout())
        .method(method, HttpRequest.BodyPublishers.noBody());
    all.forEach(builder::header);
    return sender.send(builder.build());
  }
}
