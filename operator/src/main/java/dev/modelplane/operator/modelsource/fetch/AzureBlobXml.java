package dev.modelplane.operator.modelsource.fetch;

import static dev.modelplane.operator.modelsource.fetch.SafeXml.children;
import static dev.modelplane.operator.modelsource.fetch.SafeXml.first;
import static dev.modelplane.operator.modelsource.fetch.SafeXml.name;
import static dev.modelplane.operator.modelsource.fetch.SafeXml.text;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Reads the Blob service's XML answers we need, List Blobs pages ({@code EnumerationResults}) and errors, with DTDs
 * and external entities refused.
 */
final class AzureBlobXml {
  /** One List Blobs page; {@code nextMarker} is empty on the last page. */
  record ListPage(List<Entry> entries, String nextMarker) {
  }

  /**
   * One {@code <Blob>} element.
   *
   * @param contentMd5 the base64 {@code Content-MD5} property, empty when the blob has none
   * @param folder whether the blob is a directory of a hierarchical namespace ({@code hdi_isfolder} metadata, or
   *     {@code ResourceType} directory)
   */
  record Entry(String name, long size, String etag, String contentMd5, boolean folder) {
  }

  /** An {@code <Error>} document's code and message (either may be empty). */
  record Error(String code, String message) {
  }

  private AzureBlobXml() {
  }

  static ListPage listPage(String xml) throws FetchException {
    Element root = parse(xml).getDocumentElement();
    if (!"EnumerationResults".equals(name(root))) {
      throw new FetchException(FetchException.Kind.INVALID, "the Azure List Blobs answer is not EnumerationResults");
    }
    List<Entry> entries = new ArrayList<>();
    for (Element blobs : children(root, "Blobs")) {
      for (Element blob : children(blobs, "Blob")) {
        entries.add(entry(blob));
      }
    }
    return new ListPage(entries, text(root, "NextMarker"));
  }

  private static Entry entry(Element blob) throws FetchException {
    Element nameElement = first(blob, "Name");
    String name = nameElement == null ? "" : nameElement.getTextContent();
    if ("true".equals(nameElement == null ? "" : nameElement.getAttribute("Encoded"))) {
      // Names with characters XML cannot carry come percent-encoded (a '+' stays a '+').
      name = URLDecoder.decode(name.replace("+", "%2B"), StandardCharsets.UTF_8);
    }
    Element properties = first(blob, "Properties");
    if (name.isEmpty() || properties == null) {
      throw new FetchException(FetchException.Kind.INVALID, "the Azure List Blobs answer has a blob without a name "
          + "or properties");
    }
    String size = text(properties, "Content-Length");
    Element metadata = first(blob, "Metadata");
    boolean folder = "directory".equalsIgnoreCase(text(properties, "ResourceType"))
        || metadata != null && "true".equalsIgnoreCase(text(metadata, "hdi_isfolder"));
    try {
      return new Entry(name, Long.parseLong(size), text(properties, "Etag").replace("\"", ""),
          text(properties, "Content-MD5"), folder);
    } catch (NumberFormatException e) {
      throw new FetchException(FetchException.Kind.INVALID, "the Azure List Blobs answer has blob '" + name
          + "' with Content-Length '" + size + "'", e);
    }
  }

  /** The error in a Blob service error body; empty code and message when the body is not one. */
  static Error error(String xml) {
    if (xml == null || xml.isBlank()) {
      return new Error("", "");
    }
    try {
      Element root = parse(xml).getDocumentElement();
      String message = text(root, "Message");
      int requestId = message.indexOf("\nRequestId:");
      return new Error(text(root, "Code"), (requestId < 0 ? message : message.substring(0, requestId)).strip());
    } catch (FetchException e) {
      return new Error("", "");
    }
  }

  private static Document parse(String xml) throws FetchException {
    // A UTF-8 byte order mark, which the Blob service sends before some documents, is not XML.
    return SafeXml.parse(xml.startsWith("\uFEFF") ? xml.substring(1) : xml, "Azure");
  }
}
