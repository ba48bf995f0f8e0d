package dev.modelplane.operator.modelsource.fetch;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/** Reads the few S3 XML documents we need (list pages and errors), with DTDs and external entities refused. */
final class S3Xml {
  /** One ListObjectsV2 page. */
  record ListPage(List<Entry> entries, boolean truncated, String nextContinuationToken) {
  }

  /** One {@code <Contents>} element. */
  record Entry(String key, long size, String etag) {
  }

  /** An {@code <Error>} document's code and message (either may be empty). */
  record Error(String code, String message) {
  }

  private S3Xml() {
  }

  static ListPage listPage(String xml) throws FetchException {
    Element root = parse(xml).getDocumentElement();
    if (!"ListBucketResult".equals(root.getLocalName() == null ? root.getNodeName() : root.getLocalName())) {
      throw new FetchException(FetchException.Kind.INVALID, "the S3 list answer is not a ListBucketResult");
    }
    List<Entry> entries = new ArrayList<>();
    for (Element contents : children(root, "Contents")) {
      String key = rawText(contents, "Key");
      String size = text(contents, "Size");
      try {
        entries.add(new Entry(key, Long.parseLong(size), text(contents, "ETag").replace("\"", "")));
      } catch (NumberFormatException e) {
        throw new FetchException(FetchException.Kind.INVALID, "the S3 list answer has key '" + key
            + "' with size '" + size + "'", e);
      }
    }
    return new ListPage(entries, "true".equals(text(root, "IsTruncated")), text(root, "NextContinuationToken"));
  }

  /** The error in an S3 error body; empty code and message when the body is not one. */
  static Error error(String xml) {
    if (xml == null || xml.isBlank()) {
      return new Error("", "");
    }
    try {
      Element root = parse(xml).getDocumentElement();
      return new Error(text(root, "Code"), text(root, "Message"));
    } catch (FetchException e) {
      return new Error("", "");
    }
  }

  private static Document parse(String xml) throws FetchException {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setXIncludeAware(false);
      factory.setExpandEntityReferences(false);
      return factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    } catch (ParserConfigurationException | SAXException | IOException e) {
      throw new FetchException(FetchException.Kind.INVALID, "the S3 answer is not well-formed XML: "
          + HttpSender.describe(e), e);
    }
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> out = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && name.equals(e.getLocalName() == null ? e.getNodeName() : e.getLocalName())) {
        out.add(e);
      }
    }
    return out;
  }

  private static String text(Element parent, String name) {
    return rawText(parent, name).strip();
  }

  /** Text content as sent: object keys may start or end with spaces. */
  private static String rawText(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? "" : found.get(0).getTextContent();
  }
}
