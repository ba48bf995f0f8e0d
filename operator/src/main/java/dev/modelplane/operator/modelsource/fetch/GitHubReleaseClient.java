package dev.modelplane.operator.modelsource.fetch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a model from the assets of a GitHub release through the REST API: {@code GET
 * /repos/{owner}/{repo}/releases/latest} or {@code /releases/tags/{tag}} for the release (resolved once: a newer
 * release published meanwhile is not mixed in, and its tag is the {@link #revision()}), {@code GET
 * /releases/{id}/assets} (following {@code Link: rel="next"} pages, at most a set number of assets) for names, sizes
 * and SHA-256 digests, and {@code GET} of each asset's API URL with {@code Accept: application/octet-stream} and
 * {@code Range}, following the redirect to GitHub's storage host, which never receives the token.
 */
public final class GitHubReleaseClient implements ModelFileSource {
  /** Assets a listing holds at most unless told otherwise. */
  public static final int DEFAULT_MAX_OBJECTS = 100_000;
  static final String API_VERSION = "2022-11-28";
  private static final Logger LOG = LoggerFactory.getLogger(GitHubReleaseClient.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern NEXT_LINK = Pattern.compile("<([^>]+)>\\s*;\\s*rel=\"?next\"?");
  private static final Pattern DIGEST = Pattern.compile("sha256:([0-9a-fA-F]{64})");
  private static final int MAX_REDIRECTS = 5;
  private static final int MAX_PAGES = 1_000;

  private record Release(long id, String tag) {
  }

  private final GitHubSettings settings;
  private final RedirectFollower http;
  private final int maxObjects;
  private final Map<String, URI> assetUrls = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile Release release;

  public GitHubReleaseClient(GitHubSettings settings) {
    this(settings, DEFAULT_MAX_OBJECTS);
  }

  /** A client whose {@link #list()} fails, without asking for further pages, past {@code maxObjects} assets. */
  public GitHubReleaseClient(GitHubSettings settings, int maxObjects) {
    this(settings, new HttpSender(settings.timeout()), maxObjects);
  }

  GitHubReleaseClient(GitHubSettings settings, HttpSender sender, int maxObjects) {
    this.settings = settings;
    this.http = new RedirectFollower(sender, MAX_REDIRECTS);
    this.maxObjects = ListingGuard.limit(maxObjects);
  }

  /** The settings this client reads with. */
  public GitHubSettings settings() {
    return settings;
  }

  @Override
  public String describe() {
    return "github://" + settings.owner() + "/" + settings.repository() + (settings.latest() ? "" : "@"
        + settings.tag());
  }

  /** The release's tag (for {@code latest}, the tag it resolved to on first use). */
  @Override
  public Optional<String> revision() throws IOException {
    return Optional.of(release().tag());
  }

  @Override
  public List<RemoteFile> list() throws IOException {
    Release r = release();
    String what = "the assets of release '" + r.tag() + "' of " + repo();
    List<RemoteFile> files = new ArrayList<>();
    URI page = api("/releases/" + r.id() + "/assets?per_page=" + settings.pageSize());
    for (int pages = 0; page != null; pages++) {
      if (pages >= MAX_PAGES) {
        throw invalid("listing " + what + " took more than " + MAX_PAGES + " pages");
      }
      HttpResponse<InputStream> response = get(page, "application/vnd.github+json");
      JsonNode assets = json(response, what);
      if (!assets.isArray()) {
        throw invalid(what + ": the answer is not a JSON array");
      }
      for (JsonNode asset : assets) {
        if (!asset.path("state").asText("uploaded").equals("uploaded")) {
          continue; // an upload that has not finished
        }
        if (files.size() >= maxObjects) {
          throw invalid("more than " + maxObjects + " assets in release '" + r.tag() + "' of " + repo()
              + "; a model may have at most " + maxObjects + " files (model agent flag --max-listed-objects)");
        }
        files.add(file(asset));
      }
      page = next(response, page);
    }
    if (files.isEmpty()) {
      throw new FetchException(FetchException.Kind.NOT_FOUND, "release '" + r.tag() + "' of " + repo() + " at "
          + HttpSender.origin(settings.api()) + " has no assets");
    }
    LOG.info("fetch.github.listed repository={} tag={} files={} bytes={}", repo(), r.tag(), files.size(),
        files.stream().mapToLong(RemoteFile::size).sum());
    return List.copyOf(files);
  }

  @Override
  public RemoteStream open(RemoteFile file, long offset) throws IOException {
    URI url = assetUrls.get(file.path());
    if (url == null) {
      list();
      url = assetUrls.get(file.path());
    }
    if (url == null) {
      throw new FetchException(FetchException.Kind.NOT_FOUND, "asset '" + file.path() + "' not found in release '"
          + release().tag() + "' of " + repo());
    }
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Accept", "application/octet-stream");
    headers.put("X-GitHub-Api-Version", API_VERSION);
    if (offset > 0) {
      headers.put("Range", "bytes=" + offset + "-");
    }
    String tag = release().tag();
    HttpResponse<InputStream> response = http.get(url, headers, authorization(), HttpSender.origin(settings.api()),
        settings.timeout());
    return RangedAnswer.stream(response, offset, HttpSender.origin(settings.api()) + ": "
        + HttpSender.origin(response.uri()), "asset '" + file.path() + "'", r -> GitHubErrors.of(r,
        HttpSender.readSmall(r), settings, "asset '" + file.path() + "' of release '" + tag + "' of " + repo()));
  }

  private Release release() throws IOException {
    Release known = release;
    if (known != null) {
      return known;
    }
    String what = "release '" + settings.tag() + "' of " + repo();
    URI uri = api(settings.latest() ? "/releases/latest" : "/releases/tags/" + GcsClient.encode(settings.tag()));
    JsonNode body = json(get(uri, "application/vnd.github+json"), what);
    long id = body.path("id").asLong(-1);
    String tag = body.path("tag_name").asText("");
    if (id < 0 || tag.isBlank()) {
      throw invalid(what + ": the answer has no id or tag_name");
    }
    known = new Release(id, tag);
    release = known;
    LOG.info("fetch.github.release repository={} asked={} tag={}", repo(), settings.tag(), tag);
    return known;
  }

  private RemoteFile file(JsonNode asset) throws FetchException {
    String name = asset.path("name").asText("");
    long size = asset.path("size").asLong(-1);
    String url = asset.path("url").asText("");
    if (name.isEmpty() || size < 0 || url.isEmpty()) {
      throw invalid("an asset of " + repo() + " without a name, size or url");
    }
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      throw invalid("asset '" + name + "' of " + repo() + " has a malformed url");
    }
    if (!HttpSender.origin(uri).equals(HttpSender.origin(settings.api()))) {
      throw invalid("asset '" + name + "' of " + repo() + " points at another server (" + HttpSender.origin(uri)
          + ")");
    }
    assetUrls.put(name, uri);
    Matcher digest = DIGEST.matcher(asset.path("digest").asText(""));
    Optional<ContentChecksum> sha = digest.matches() ? Optional.of(ContentChecksum.sha256(digest.group(1)))
        : Optional.empty();
    return RemoteFile.withChecksum(name, size, Optional.of(asset.path("id").asText("")).filter(s -> !s.isEmpty()),
        sha);
  }

  private HttpResponse<InputStream> get(URI uri, String accept) throws FetchException {
    return http.get(uri, Map.of("Accept", accept, "X-GitHub-Api-Version", API_VERSION), authorization(),
        HttpSender.origin(settings.api()), settings.timeout());
  }

  private JsonNode json(HttpResponse<InputStream> response, String what) throws FetchException {
    String body = HttpSender.readSmall(response);
    if (response.statusCode() != 200) {
      throw GitHubErrors.of(response, body, settings, what);
    }
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw invalid(what + ": the answer is not JSON");
    }
  }

  private URI next(HttpResponse<InputStream> response, URI current) throws FetchException {
    for (String link : response.headers().allValues("Link")) {
      Matcher m = NEXT_LINK.matcher(link);
      if (m.find()) {
        URI next = current.resolve(m.group(1));
        if (!HttpSender.origin(next).equals(HttpSender.origin(settings.api())) || next.equals(current)) {
          throw invalid("the asset listing of " + repo() + " links its next page elsewhere or to itself");
        }
        return next;
      }
    }
    return null;
  }

  private URI api(String pathAndQuery) {
    return URI.create(settings.api() + "/repos/" + settings.owner() + "/" + settings.repository() + pathAndQuery);
  }

  private String authorization() {
    return settings.token().map(t -> "Bearer " + t).orElse(null);
  }

  private String repo() {
    return settings.owner() + "/" + settings.repository();
  }

  private FetchException invalid(String message) {
    return new FetchException(FetchException.Kind.INVALID, HttpSender.origin(settings.api()) + ": " + message);
  }
}
