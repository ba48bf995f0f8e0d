package dev.modelplane.crdtools;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.annotation.processing.SupportedOptions;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.RecordComponentElement;
import javax.lang.model.element.TypeElement;
import javax.tools.Diagnostic;
import javax.tools.FileObject;
import javax.tools.StandardLocation;

/**
 * Collects the Javadoc of API types and their members into {@value #INDEX} so that the CRD writer can use it as
 * the schema description. Keys are {@code <binary class name>} for a type and {@code <binary class name>#<json name>}
 * for a field or record component; the JSON name honours {@code @JsonProperty("…")}.
 *
 * <p>With {@code -Amodelplane.javadoc.require=<package prefix>} the processor reports an error for every type or
 * member under that prefix that lacks Javadoc, so a missing description fails the build instead of yielding an
 * undocumented CRD field.
 */
@SupportedAnnotationTypes("*")
@SupportedOptions(JavadocIndexProcessor.REQUIRE_OPTION)
public final class JavadocIndexProcessor extends AbstractProcessor {
  /** Resource path of the generated index, relative to the class output. */
  public static final String INDEX = "META-INF/modelplane/javadoc.properties";
  static final String REQUIRE_OPTION = "modelplane.javadoc.require";
  private static final String JSON_PROPERTY = "com.fasterxml.jackson.annotation.JsonProperty";
  private static final String JSON_IGNORE = "com.fasterxml.jackson.annotation.JsonIgnore";

  private final Map<String, String> index = new TreeMap<>();

  @Override
  public SourceVersion getSupportedSourceVersion() {
    return SourceVersion.latestSupported();
  }

  @Override
  public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
    for (Element root : round.getRootElements()) {
      if (root instanceof TypeElement type) {
        visitType(type);
      }
    }
    if (round.processingOver()) {
      writeIndex();
    }
    return false;
  }

  private void visitType(TypeElement type) {
    String className = processingEnv.getElementUtils().getBinaryName(type).toString();
    String typeDoc = processingEnv.getElementUtils().getDocComment(type);
    Map<String, String> paramDocs = JavadocText.paramTags(typeDoc);
    record(className, JavadocText.clean(JavadocText.withoutBlockTags(typeDoc)), type);
    for (Element member : type.getEnclosedElements()) {
      switch (member.getKind()) {
        case RECORD_COMPONENT -> {
          String name = member.getSimpleName().toString();
          String doc = paramDocs.get(name);
          // @JsonProperty cannot target a record component itself; javac copies it to the accessor and field.
          String json = jsonName(member, jsonName(((RecordComponentElement) member).getAccessor(),
              jsonName(recordField(type, name), name)));
          record(className + "#" + json, JavadocText.clean(doc), member);
        }
        case FIELD -> {
          if (type.getKind() == ElementKind.RECORD
              || member.getModifiers().contains(Modifier.STATIC)
              || hasAnnotation(member, JSON_IGNORE)) {
            break;
          }
          String name = member.getSimpleName().toString();
          String doc = processingEnv.getElementUtils().getDocComment(member);
          record(className + "#" + jsonName(member, name), JavadocText.clean(doc), member);
        }
        case ENUM_CONSTANT -> {
          String doc = processingEnv.getElementUtils().getDocComment(member);
          record(className + "#" + jsonName(member, member.getSimpleName().toString()), JavadocText.clean(doc), member);
        }
        case CLASS, RECORD, ENUM, INTERFACE -> visitType((TypeElement) member);
        default -> { }
      }
    }
  }

  private void record(String key, String doc, Element element) {
    if (doc != null && !doc.isBlank()) {
      index.put(key, doc);
      return;
    }
    String required = processingEnv.getOptions().get(REQUIRE_OPTION);
    if (required != null && !required.isBlank() && key.startsWith(required)
        && !element.getModifiers().contains(Modifier.PRIVATE)) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR,
          "missing Javadoc: every API type and field is documented, because its Javadoc becomes the CRD description ("
              + key + ")", element);
    }
  }

  private static Element recordField(TypeElement type, String name) {
    for (Element e : type.getEnclosedElements()) {
      if (e.getKind() == ElementKind.FIELD && e.getSimpleName().contentEquals(name)) {
        return e;
      }
    }
    return null;
  }

  private static boolean hasAnnotation(Element element, String annotation) {
    for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
      if (mirror.getAnnotationType().toString().equals(annotation)) {
        return true;
      }
    }
    return false;
  }

  private static String jsonName(Element element, String fallback) {
    if (element == null) {
      return fallback;
    }
    for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
      if (!mirror.getAnnotationType().toString().equals(JSON_PROPERTY)) {
        continue;
      }
      for (var entry : mirror.getElementValues().entrySet()) {
        if (entry.getKey().getSimpleName().contentEquals("value")) {
          String value = String.valueOf(entry.getValue().getValue());
          if (!value.isEmpty()) {
            return value;
          }
        }
      }
    }
    return fallback;
  }

  private void writeIndex() {
    if (index.isEmpty()) {
      return;
    }
    try {
      FileObject file = processingEnv.getFiler().createResource(StandardLocation.CLASS_OUTPUT, "", INDEX);
      try (Writer writer = new java.io.OutputStreamWriter(file.openOutputStream(), StandardCharsets.UTF_8)) {
        // Written by hand rather than with Properties.store: sorted and without a timestamp, so that the file is
        // identical between builds.
        for (var entry : index.entrySet()) {
          writer.write(escape(entry.getKey(), true) + "=" + escape(entry.getValue(), false) + "\n");
        }
      }
    } catch (IOException e) {
      processingEnv.getMessager().printMessage(Diagnostic.Kind.ERROR, "cannot write " + INDEX + ": " + e);
    }
  }

  private static String escape(String text, boolean key) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '=', ':', '#', '!' -> out.append(key ? "\\" + c : String.valueOf(c));
        case ' ' -> out.append(key || i == 0 ? "\\ " : " ");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
