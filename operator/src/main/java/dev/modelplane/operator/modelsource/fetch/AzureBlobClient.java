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
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a model from Azure Blob Storage (or an emulator such as Azurite): List Blobs over the container, flat,
 * following {@code NextMarker} one page in memory at a time with at most a set number of blobs kept, and Get Blob
 * with {@code x-ms-range} for content. Blob names become paths relative to the prefix; every file carries its size
 * and, where the blob has one, its {@code Content-MD5}. Requests are signed with the account key (Shared Key), carry
 * a SAS token in their query, or go anonymous. URLs are never logged: a SAS token is part of them.
 */
public final class AzureBlobClient implements ModelFileSource {
  /** The Blob service version requested ({@code x-ms-version}); Azure and Azurite both serve it. */
  public static final String API_VERSION = "2021-08-06";
  /** Blobs a listing holds at most unless told otherwise. */
  public static final int DEFAULT_MAX_OBJECTS = 100_000;
  private static final Logger LOG = LoggerFactory.getLogger(AzureBlobClient.class);

  private final AzureBlobSettings settings;
  private final HttpSender sender;
  private final Clock clock;
  private final int maxObjects;
  private final SharedKeySigner signer;

  public AzureBlobClient(AzureBlobSettings settings) {
    this(settings, DEFAULT_MAX_OBJECTS);
  }

  /** A client whose {@link #list()} fails, without asking for further pages, past {@code maxObjects} blobs. */
  public AzureBlobClient(AzureBlobSettings settings, int maxObjects) {
    this(settings, new HttpSender(settings.timeout()), Clock.systemUTC(), maxObjects);
  }

  AzureBlobClient(AzureBlobSettings settings, HttpSender sender, Clock clock, int maxObjects) {
    this.settings = settings;
    this.sender = sender;
    this.clock = clock;
    this.maxObjects = ListingGuard.limit(maxObjects);
    this.signer = settings.credential() instanceof AzureCredential.SharedKey key
        ? new SharedKeySigner(settings.account(), key.key()) : null;
  }

  /** The settings this client reads with. */
  public AzureBlobSettings settings() {
    return settings;
  }

  @Override
  public String describe() {
    return "az://" + settings.account() + "/" + settings.container()
        + (settings.prefix().isEmpty() ? "" : "/" + settings.prefix());
  }

  /** Blobs have no commit: always empty. */
  @Override
  public Optional<String> revision() {
    return Optional.empty();
  }

  @Override
  public List<RemoteFile> list() throws IOException {
    String keyPrefix = settings.keyPrefix();
    String origin = HttpSender.origin(settings.endpoint());
    ListingGuard listing = new ListingGuard(describe(), origin, keyPrefix, maxObjects,
        "blobs under prefix '" + keyPrefix + "' in Azure container '" + settings.container() + "'");
    String marker = "";
    while (true) {
      listing.page();
      List<Map.Entry<String, String>> query = new ArrayList<>();
      query.add(Map.entry("restype", "container"));
      query.add(Map.entry("comp", "list"));
      if (!keyPrefix.isEmpty()) {
        query.add(Map.entry("prefix", keyPrefix));
      }
      query.add(Map.entry("maxresults", Integer.toString(settings.pageSize())));
      query.add(Map.entry("include", "metadata"));
      if (!marker.isEmpty()) {
        query.add(Map.entry("marker", marker));
      }
      HttpResponse<InputStream> response = send("GET", "/" + settings.container(), query, Map.of(), new byte[0]);
      String body = HttpSender.readSmall(response);
      if (response.statusCode() != 200) {
        throw error(response, body, null);
      }
      AzureBlobXml.ListPage page = AzureBlobXml.listPage(body);
      for (AzureBlobXml.Entry entry : page.entries()) {
        // A directory of a hierarchical namespace is skipped like a directory marker blob.
        String path = entry.folder() ? null : listing.relative(entry.name());
        if (path != null) {
          listing.add(file(entry, path));
        }
      }
      if (page.nextMarker().isEmpty()) {
        break;
      }
      marker = listing.next(page.nextMarker(), marker, "a page repeated its marker");
    }
    List<RemoteFile> files = listing.files("no blobs under prefix '" + keyPrefix + "' in Azure container '"
        + settings.container() + "' of account '" + settings.account() + "' at " + origin);
    LOG.info("fetch.azure.listed account={} container={} prefix={} files={} bytes={}", settings.account(),
        settings.container(), keyPrefix, files.size(), ListingGuard.bytes(files));
    return files;
  }

  private RemoteFile file(AzureBlobXml.Entry entry, String path) throws FetchException {
    Optional<ContentChecksum> md5;
    try {
      md5 = Optional.of(entry.contentMd5()).filter(m -> !m.isEmpty())
          .map(m -> ContentChecksum.ofBase64(ContentChecksum.Algorithm.MD5, m));
    } catch (IllegalArgumentException e) {
      throw new FetchException(FetchException.Kind.INVALID, "blob '" + entry.name() + "' in " + describe()
          + " has a Content-MD5 that is not a base64 MD5", e);
    }
    return RemoteFile.withChecksum(path, entry.size(),
        Optional.of(entry.etag()).filter(e -> !e.isEmpty()), md5);
  }

  @Override
  public RemoteStream open(RemoteFile file, long offset) throws IOException {
    Map<String, String> headers = offset > 0 ? Map.of("x-ms-range", "bytes=" + offset + "-") : Map.of();
    HttpResponse<InputStream> response = send("GET", blobPath(file.path()), List.of(), headers, new byte[0]);
    return RangedAnswer.stream(response, offset, HttpSender.origin(settings.endpoint()), "'" + file.path() + "'",
        r -> error(r, HttpSender.readSmall(r), file.path()));
  }

  /**
   * Sends a request to {@code path} (not yet encoded, e.g. {@code /container/blob}) under the endpoint, authorized
   * as the settings say. Package-visible so tests can create containers and blobs with the same signing.
   */
  HttpResponse<InputStream> send(String method, String path, List<Map.Entry<String, String>> query,
      Map<String, String> headers, byte[] body) throws FetchException {
    String rawQuery = query.stream().map(e -> SigV4Signer.uriEncode(e.getKey(), true) + "="
        + SigV4Signer.uriEncode(e.getValue(), true)).collect(Collectors.joining("&"));
    if (settings.credential() instanceof AzureCredential.Sas sas) {
      rawQuery = rawQuery.isEmpty() ? sas.token() : rawQuery + "&" + sas.token();
    }
    URI uri = URI.create(settings.endpoint() + SigV4Signer.uriEncode(path, false)
        + (rawQuery.isEmpty() ? "" : "?" + rawQuery));
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.put("x-ms-date", SharedKeySigner.httpDate(clock.instant()));
    all.put("x-ms-version", API_VERSION);
    HttpRequest.Builder builder = HttpRequest.newBuilder(uri).timeout(settings.timeout())
        .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    if (signer != null) {
      // The client sets Content-Length itself; the signature covers it all the same.
      Map<String, String> signed = new LinkedHashMap<>(all);
      signed.put("Content-Length", Integer.toString(body.length));
      all.put("Authorization", signer.authorization(method, uri, signed));
    }
    all.forEach(builder::header);
    return sender.send(builder.build());
  }

  private FetchException error(HttpResponse<InputStream> response, String body, String path) {
    AzureBlobXml.Error xml = AzureBlobXml.error(body);
    String code = response.headers().firstValue("x-ms-error-code").orElse(xml.code());
    return AzureErrors.of(response.statusCode(), code, xml.message(), settings, path);
  }

  private String blobPath(String relativePath) {
    return "/" + settings.container() + "/" + settings.keyPrefix() + relativePath;
  }
}
