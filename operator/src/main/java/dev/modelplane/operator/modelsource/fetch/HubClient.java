package dev.modelplane.operator.modelsource.fetch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a model repository from the Hugging Face Hub (or any server with the same HTTP API, e.g. a mirror named by
 * {@code HF_ENDPOINT}). The revision is pinned to one commit on first use: listings and downloads then all read that
 * commit, even if the branch moves meanwhile.
 *
 * <p>Uses {@code GET /api/models/{repo}/revision/{rev}} for the commit, {@code GET
 * /api/models/{repo}/tree/{commit}?recursive=true} (following {@code Link: rel="next"} pages) for files, sizes and
 * LFS SHA-256s, and {@code GET /{repo}/resolve/{commit}/{path}} with {@code Range} for content.
 */
public final class HubClient implements ModelFileSource {
  private static final Logger LOG = LoggerFactory.getLogger(HubClient.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern NEXT_LINK = Pattern.compile("<([^>]+)>\\s*;\\s*rel=\"?next\"?");
  private static final int MAX_REDIRECTS = 5;
  private static final int MAX_TREE_PAGES = 10_000;

  private final HubSettings settings;
  private final RedirectFollower http;
  private volatile String commit;

  public HubClient(HubSettings settings) {
    this(settings, new HttpSender(settings.timeout()));
  }

  HubClient(HubSettings settings, HttpSender sender) {
    this.settings = settings;
    this.http = new RedirectFollower(sender, MAX_REDIRECTS);
  }

  /** The settings this client reads with. */
  public HubSettings settings() {
    return settings;
  }

  @Override
  public String describe() {
    return "hf://" + settings.repoId() + "@" + settings.revision();
  }

  /** The commit sha the revision points at (asked once, then kept). */
  @Override
  public Optional<String> revision() throws IOException {
    return Optional.of(commit());
  }

  /** The commit sha the revision points at (asked once, then kept). */
  public String commit() throws IOException {
    String known = commit;
    if (known != null) {
      return known;
    }
    URI uri = api("revision/" + encodeSegment(settings.revision()));
    HttpResponse<InputStream> response = http.get(uri, Map.of("Accept", "application/json"), authorization(),
        origin(), settings.timeout());
    JsonNode body = json(expectOk(response, HubErrors.Call.REVISION, null));
    String sha = body.path("sha").asText("");
    if (!sha.matches("[0-9a-f]{40}([0-9a-f]{24})?")) {
      throw new FetchException(FetchException.Kind.INVALID, origin() + " answered the revision of "
          + settings.repoId() + "@" + settings.revision() + " without a commit sha");
    }
    LOG.info("fetch.hub.revision repo={} revision={} commit={}", settings.repoId(), settings.revision(), sha);
    commit = sha;
    return sha;
  }

  @Override
  public List<RemoteFile> list() throws IOException {
    String sha = commit();
    URI page = api("tree/" + sha + "?recursive=true");
    List<RemoteFile> files = new ArrayList<>();
    for (int pages = 0; page != null; pages++) {
      if (pages >= MAX_TREE_PAGES) {
        throw new FetchException(FetchException.Kind.INVALID, "the file list of " + describe() + " has more than "
            + MAX_TREE_PAGES + " pages");
      }
      // The token goes to the endpoint's origin only: a next-page link to another host or scheme gets none.
      HttpResponse<InputStream> response = http.get(page, Map.of("Accept", "application/json"), authorization(),
          origin(), settings.timeout());
      Optional<String> link = response.headers().firstValue("Link");
      JsonNode entries = json(expectOk(response, HubErrors.Call.TREE, null));
      if (!entries.isArray()) {
        throw new FetchException(FetchException.Kind.INVALID, origin() + " answered the file list of " + describe()
            + " with something other than a JSON array");
      }
      for (JsonNode entry : entries) {
        if ("file".equals(entry.path("type").asText())) {
          files.add(remoteFile(entry));
        }
      }
      URI next = link.flatMap(HubClient::nextPage).orElse(null);
      if (next != null && RedirectFollower.downgrade(page, next)) {
        throw new FetchException(FetchException.Kind.INVALID, origin() + " linked the next page of the file list of "
            + describe() + " to plain http (" + HttpSender.origin(next) + "); refused");
      }
      page = next;
    }
    LOG.info("fetch.hub.listed repo={} commit={} files={} bytes={}", settings.repoId(), sha, files.size(),
        files.stream().mapToLong(RemoteFile::size).sum());
    return List.copyOf(files);
  }

  @Override
  public RemoteStream open(RemoteFile file, long offset) throws IOException {
    URI uri = URI.create(settings.endpoint() + "/" + settings.repoId() + "/resolve/" + commit() + "/"
        + encodePath(file.path()));
    Map<String, String> headers = offset > 0 ? Map.of("Range", "bytes=" + offset + "-") : Map.of();
    HttpResponse<InputStream> response = http.get(uri, headers, authorization(), origin(), settings.timeout());
    return RangedAnswer.stream(response, offset, origin(), file.path(), r -> {
      HttpSender.discard(r);
      return HubErrors.of(HubErrors.Call.FILE, r.statusCode(), r.headers(), settings, file.path());
    });
  }

  private InputStream expectOk(HttpResponse<InputStream> response, HubErrors.Call call, String path)
      throws FetchException {
    if (response.statusCode() == 200) {
      return response.body();
    }
    HttpSender.discard(response);
    throw HubErrors.of(call, response.statusCode(), response.headers(), settings, path);
  }

  private JsonNode json(InputStream body) throws FetchException {
    try (body) {
      byte[] bytes = body.readNBytes(HttpSender.MAX_SMALL_BODY + 1);
      if (bytes.length > HttpSender.MAX_SMALL_BODY) {
        throw new FetchException(FetchException.Kind.INVALID, origin() + " sent a JSON answer larger than "
            + HttpSender.MAX_SMALL_BODY + " bytes");
      }
      return JSON.readTree(bytes);
    } catch (FetchException e) {
      throw e;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new FetchException(FetchException.Kind.INVALID, origin() + " sent malformed JSON for " + describe(), e);
    } catch (IOException e) {
      throw new FetchException(FetchException.Kind.CONNECTION, "reading the answer of " + origin() + " failed: "
          + HttpSender.describe(e), e);
    }
  }

  private RemoteFile remoteFile(JsonNode entry) throws FetchException {
    String path = entry.path("path").asText("");
    JsonNode size = entry.path("size");
    if (path.isEmpty() || !size.canConvertToLong() || size.asLong() < 0) {
      throw new FetchException(FetchException.Kind.INVALID, origin() + " listed a file of " + describe()
          + " without a path or size");
    }
    JsonNode lfs = entry.path("lfs");
    Optional<String> sha256 = Optional.empty();
    if (lfs.isObject()) {
      String oid = lfs.path("oid").asText(lfs.path("sha256").asText("")).replaceFirst("^sha256:", "");
      if (!oid.matches("[0-9a-fA-F]{64}")) {
        throw new FetchException(FetchException.Kind.INVALID, origin() + " listed LFS file " + path + " of "
            + describe() + " with an oid that is not a SHA-256");
      }
      sha256 = Optional.of(oid);
    }
    Optional<String> etag = sha256.or(() -> Optional.of(entry.path("oid").asText("")).filter(s -> !s.isEmpty()));
    return new RemoteFile(path, size.asLong(), sha256, etag);
  }

  private URI api(String rest) {
    return URI.create(settings.endpoint() + "/api/models/" + settings.repoId() + "/" + rest);
  }

  private String authorization() {
    return settings.token().map(t -> "Bearer " + t).orElse(null);
  }

  private String origin() {
    return HttpSender.origin(settings.endpoint());
  }

  /** The {@code rel="next"} target of a {@code Link} header, if it is an http(s) URL. */
  static Optional<URI> nextPage(String link) {
    Matcher m = NEXT_LINK.matcher(link);
    if (!m.find()) {
      return Optional.empty();
    }
    try {
      URI uri = URI.create(m.group(1).trim());
      String scheme = uri.getScheme();
      return "http".equals(scheme) || "https".equals(scheme) ? Optional.of(uri) : Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  static String encodeSegment(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  static String encodePath(String path) {
    StringBuilder out = new StringBuilder();
    for (String segment : path.split("/", -1)) {
      if (!out.isEmpty()) {
        out.append('/');
      }
      out.append(encodeSegment(segment));
    }
    return out.toString();
  }
}
