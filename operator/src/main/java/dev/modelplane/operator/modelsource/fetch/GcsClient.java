package dev.modelplane.operator.modelsource.fetch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a model from Google Cloud Storage (or an emulator) through the JSON API: {@code GET
 * /storage/v1/b/{bucket}/o?prefix=} (following {@code nextPageToken}, one page in memory at a time, at most a set
 * number of objects kept) for names, sizes, checksums and generations, and {@code GET
 * /storage/v1/b/{bucket}/o/{object}?alt=media&generation=} with {@code Range} for content. Each file carries its
 * CRC32C (every GCS object has one, composite objects included), else its MD5, for the downloader to verify, and its
 * generation as its etag: a download reads exactly the listed generation, so an object replaced midway fails instead
 * of mixing two versions. {@code Accept-Encoding: gzip} asks for objects stored gzip-encoded as they are stored, so
 * size and checksum match. Object names become paths relative to the prefix.
 */
public final class GcsClient implements ModelFileSource {
  /** Objects a listing holds at most unless told otherwise. */
  public static final int DEFAULT_MAX_OBJECTS = 100_000;
  private static final Logger LOG = LoggerFactory.getLogger(GcsClient.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LIST_FIELDS = "items(name,size,md5Hash,crc32c,generation,etag),nextPageToken";

  private final GcsSettings settings;
  private final HttpSender sender;
  private final int maxObjects;

  public GcsClient(GcsSettings settings) {
    this(settings, DEFAULT_MAX_OBJECTS);
  }

  /** A client whose {@link #list()} fails, without asking for further pages, past {@code maxObjects} objects. */
  public GcsClient(GcsSettings settings, int maxObjects) {
    this(settings, new HttpSender(settings.timeout()), maxObjects);
  }

  GcsClient(GcsSettings settings, HttpSender sender, int maxObjects) {
    this.settings = settings;
    this.sender = sender;
    this.maxObjects = ListingGuard.limit(maxObjects);
  }

  /** The settings this client reads with. */
  public GcsSettings settings() {
    return settings;
  }

  @Override
  public String describe() {
    return "gs://" + settings.bucket() + (settings.prefix().isEmpty() ? "" : "/" + settings.prefix());
  }

  /** GCS objects have generations, not one revision for the model: always empty. */
  @Override
  public Optional<String> revision() {
    return Optional.empty();
  }

  @Override
  public List<RemoteFile> list() throws IOException {
    String namePrefix = settings.namePrefix();
    String origin = HttpSender.origin(settings.endpoint());
    ListingGuard listing = new ListingGuard(describe(), origin, namePrefix, maxObjects,
        "objects under prefix '" + namePrefix + "' in GCS bucket '" + settings.bucket() + "'");
    String token = null;
    while (true) {
      listing.page();
      Map<String, String> query = new LinkedHashMap<>();
      query.put("prefix", namePrefix);
      query.put("maxResults", Integer.toString(settings.pageSize()));
      query.put("fields", LIST_FIELDS);
      if (token != null) {
        query.put("pageToken", token);
      }
      HttpResponse<InputStream> response = get("/storage/v1/b/" + encode(settings.bucket()) + "/o", query,
          Map.of("Accept", "application/json"));
      String body = HttpSender.readSmall(response);
      if (response.statusCode() != 200) {
        throw GcsErrors.of(response.statusCode(), body, settings, null, null);
      }
      JsonNode page = parse(body);
      for (JsonNode item : page.path("items")) {
        String path = listing.relative(item.path("name").asText(""));
        if (path != null) {
          listing.add(file(path, item));
        }
      }
      String next = page.path("nextPageToken").asText("");
      if (next.isEmpty()) {
        break;
      }
      token = listing.next(next, token, "the same page token twice");
    }
    List<RemoteFile> files = listing.files("no objects under prefix '" + namePrefix + "' in GCS bucket '"
        + settings.bucket() + "' at " + origin);
    LOG.info("fetch.gcs.listed bucket={} prefix={} files={} bytes={}", settings.bucket(), namePrefix, files.size(),
        ListingGuard.bytes(files));
    return files;
  }

  @Override
  public RemoteStream open(RemoteFile file, long offset) throws IOException {
    String object = settings.namePrefix() + file.path();
    Map<String, String> query = new LinkedHashMap<>();
    query.put("alt", "media");
    String generation = file.etag().filter(e -> e.matches("[0-9]{1,20}")).orElse(null);
    if (generation != null) {
      query.put("generation", generation);
    }
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Accept-Encoding", "gzip");
    if (offset > 0) {
      headers.put("Range", "bytes=" + offset + "-");
    }
    HttpResponse<InputStream> response = get("/storage/v1/b/" + encode(settings.bucket()) + "/o/" + encode(object),
        query, headers);
    return RangedAnswer.stream(response, offset, HttpSender.origin(settings.endpoint()), "'" + object + "'",
        r -> GcsErrors.of(r.statusCode(), HttpSender.readSmall(r), settings, object, generation));
  }

  private RemoteFile file(String path, JsonNode item) throws FetchException {
    long size;
    try {
      size = Long.parseLong(item.path("size").asText(""));
    } catch (NumberFormatException e) {
      throw invalid("'" + path + "' without a size");
    }
    Optional<ContentChecksum> checksum;
    try {
      checksum = text(item, "crc32c").map(c -> ContentChecksum.ofBase64(ContentChecksum.Algorithm.CRC32C, c))
          .or(() -> text(item, "md5Hash").map(m -> ContentChecksum.ofBase64(ContentChecksum.Algorithm.MD5, m)));
    } catch (IllegalArgumentException e) {
      throw invalid("'" + path + "' with a malformed checksum: " + e.getMessage());
    }
    Optional<String> generation = text(item, "generation").filter(g -> g.matches("[0-9]{1,20}"));
    return RemoteFile.withChecksum(path, size, generation, checksum);
  }

  private HttpResponse<InputStream> get(String path, Map<String, String> query, Map<String, String> headers)
      throws FetchException {
    StringBuilder uri = new StringBuilder(settings.endpoint().toString()).append(path);
    char separator = '?';
    for (Map.Entry<String, String> e : query.entrySet()) {
      uri.append(separator).append(encode(e.getKey())).append('=').append(encode(e.getValue()));
      separator = '&';
    }
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(uri.toString())).timeout(settings.timeout()).GET();
    headers.forEach(builder::header);
    settings.auth().bearer().ifPresent(token -> builder.header("Authorization", "Bearer " + token));
    return sender.send(builder.build());
  }

  /** Percent-encodes a path segment or query part: everything but RFC 3986's unreserved characters. */
  static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20").replace("*", "%2A")
        .replace("%7E", "~");
  }

  private JsonNode parse(String body) throws FetchException {
    JsonNode node;
    try {
      node = JSON.readTree(body);
    } catch (IOException e) {
      throw invalid("a listing page that is not JSON");
    }
    if (node == null || !node.isObject()) {
      throw invalid("a listing page that is not a JSON object");
    }
    return node;
  }

  private FetchException invalid(String what) {
    return new FetchException(FetchException.Kind.INVALID, HttpSender.origin(settings.endpoint()) + " listed " + what
        + " for " + describe());
  }

  private static Optional<String> text(JsonNode item, String field) {
    return Optional.of(item.path(field).asText("")).filter(s -> !s.isBlank());
  }
}
