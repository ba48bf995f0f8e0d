#!/usr/bin/env bash
# Builds the modelplane container image without a container engine: an OCI image archive (also loadable by
# `docker load`) with two layers — a Java runtime linked from the build JDK plus the C libraries it and the jar's
# tokenizer library need, taken from this machine, and the modelplane jar. Entries are sorted and dated 1970-01-01,
# so the same inputs give the same digests.
#
#   hack/image/build.sh [--jar FILE] [--name NAME:TAG] [--output FILE]
#
# Defaults: the jar the launcher builds (cli/target/modelplane.jar, built if missing), the name
# ghcr.io/modelplane/modelplane:<project version>, the output cli/target/modelplane-image.tar. Push it with e.g.
# `skopeo copy oci-archive:cli/target/modelplane-image.tar docker://REGISTRY/modelplane:TAG`, or
# `docker load -i cli/target/modelplane-image.tar`. The last line printed is the output path.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

jar="$root/cli/target/modelplane.jar"
version="$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$root/pom.xml" | head -1)"
name="ghcr.io/modelplane/modelplane:${version%-SNAPSHOT}"
output="$root/cli/target/modelplane-image.tar"
while [ $# -gt 0 ]; do
  case "$1" in
    --jar) jar="$2"; shift 2 ;;
    --name) name="$2"; shift 2 ;;
    --output) output="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "image: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

for tool in tar gzip sha256sum ldd; do
  command -v "$tool" >/dev/null 2>&1 || { echo "image: $tool is required" >&2; exit 1; }
done
case "$(uname -m)" in
  x86_64) arch=amd64 djl_platform=linux-x86_64 ;;
  aarch64) arch=arm64 djl_platform=linux-aarch64 ;;
  *) echo "image: unsupported architecture $(uname -m)" >&2; exit 1 ;;
esac

if [ ! -f "$jar" ]; then
  echo "image: building $jar" >&2
  "$root/hack/mvn" -q -pl cli -am package -DskipTests >&2
fi
java_home="$("$root/hack/find-jdk")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
mkdir -p "$rootfs"

# The modules the jar uses (jdeps over the shaded jar), plus what is loaded reflectively: JMX for the JVM metrics,
# the EC provider where it is still a module of its own.
modules="java.base,java.compiler,java.desktop,java.management,java.naming,java.net.http,java.sql,jdk.httpserver"
modules="$modules,jdk.jfr,jdk.management,jdk.unsupported"
if "$java_home/bin/java" --list-modules | grep -q '^jdk.crypto.ec@'; then
  modules="$modules,jdk.crypto.ec"
fi
echo "image: linking a Java runtime ($modules)" >&2
"$java_home/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
  --output "$rootfs/opt/java" >&2

# The runtime is headless: the X11, splash-screen and sound bridges go (java.beans, which libraries use, stays).
rm -f "$rootfs"/opt/java/lib/{libawt_xawt,libjawt,libsplashscreen,libjsound}.so
# The C libraries every binary of the runtime links against, at the paths the dynamic loader looks for them.
libs="$(
  find "$rootfs/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' \) -print0 | xargs -0 ldd 2>/dev/null \
    | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// && $1 ~ /ld-linux/ {print $1}' \
    | grep -v "^$rootfs" | sort -u
)"
libdir="$(dirname "$(printf '%s\n' "$libs" | grep '/libc\.so' | head -1)")"
for extra in libnss_files.so.2 libnss_dns.so.2 libresolv.so.2; do
  [ -e "$libdir/$extra" ] && libs="$libs"$'\n'"$libdir/$extra"
done
# The Hugging Face tokenizer library inside the jar (DJL unpacks it at run time) is C++: it also links libstdc++ and
# libgcc_s, which the JVM does not. Its dependencies are read with ldd from the copy in the jar, so the image carries
# what that very build needs, and a build machine that cannot satisfy it (glibc older than 2.34) fails here.
djl_lib="native/lib/$djl_platform/cpu/libtokenizers.so"
mkdir -p "$work/djl"
(cd "$work/djl" && "$java_home/bin/jar" xf "$jar" "$djl_lib")
[ -f "$work/djl/$djl_lib" ] || { echo "image: $jar has no $djl_lib (the tokenizer library)" >&2; exit 1; }
djl_ldd="$(ldd "$work/djl/$djl_lib" 2>&1)"
if grep -q 'not found' <<< "$djl_ldd"; then
  echo "image: this machine cannot run the tokenizer library:" >&2
  grep 'not found' <<< "$djl_ldd" >&2
  exit 1
fi
djl_libs="$(awk '$2 == "=>" && $3 ~ /^\// {print $3}' <<< "$djl_ldd" | sort -u)"
for needed in libstdc++.so.6 libgcc_s.so.1; do
  grep -q "/$needed\$" <<< "$djl_libs" || { echo "image: ldd does not resolve $needed for $djl_lib" >&2; exit 1; }
done
libs="$(printf '%s\n%s\n' "$libs" "$djl_libs" | grep . | sort -u)"
while IFS= read -r lib; do
  [ -n "$lib" ] || continue
  mkdir -p "$rootfs$(dirname "$lib")"
  cp -L "$lib" "$rootfs$lib"
done <<< "$libs"
echo "image: $(printf '%s\n' "$libs" | grep -c .) host libraries" >&2

mkdir -p "$rootfs/etc" "$rootfs/tmp" "$rootfs/home/nonroot" "$rootfs/proc" "$rootfs/sys" "$rootfs/dev"
chmod 1777 "$rootfs/tmp"
printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' \
  > "$rootfs/etc/passwd"
printf 'root:x:0:\nnonroot:x:65532:\n' > "$rootfs/etc/group"
printf 'hosts: files dns\n' > "$rootfs/etc/nsswitch.conf"
mkdir -p "$work/app/app"
cp "$jar" "$work/app/app/modelplane.jar"

layout="$work/layout"
mkdir -p "$layout/blobs/sha256"
reproducible_tar() { # $1 = directory, $2 = output tar
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=posix \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime -C "$1" -cf "$2" .
}
diff_ids=()
layer_json=()
layer_paths=()
for part in rootfs app; do
  src="$rootfs"
  [ "$part" = app ] && src="$work/app"
  reproducible_tar "$src" "$work/$part.tar"
  diff_ids+=("sha256:$(sha256sum "$work/$part.tar" | cut -d' ' -f1)")
  gzip -n -6 "$work/$part.tar"
  digest="$(sha256sum "$work/$part.tar.gz" | cut -d' ' -f1)"
  mv "$work/$part.tar.gz" "$layout/blobs/sha256/$digest"
  size="$(stat -c %s "$layout/blobs/sha256/$digest")"
  layer_json+=("{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\"sha256:$digest\",\"size\":$size}")
  layer_paths+=("\"blobs/sha256/$digest\"")
done
join() { local IFS=,; printf '%s' "$*"; }

blob() { # stdin -> blob; prints digest and size
  local tmp="$work/blob" digest
  cat > "$tmp"
  digest="$(sha256sum "$tmp" | cut -d' ' -f1)"
  mv "$tmp" "$layout/blobs/sha256/$digest"
  printf '%s %s\n' "$digest" "$(stat -c %s "$layout/blobs/sha256/$digest")"
}
quoted_ids="$(printf '"%s",' "${diff_ids[@]}")"
read -r config_digest config_size < <(printf '%s' "{\"architecture\":\"$arch\",\"os\":\"linux\",\
\"created\":\"1970-01-01T00:00:00Z\",\"config\":{\"User\":\"65532:65532\",\
\"Env\":[\"PATH=/opt/java/bin:/usr/bin:/bin\",\"JAVA_HOME=/opt/java\",\"LANG=C.UTF-8\",\
\"DJL_OFFLINE=true\",\"OPT_OUT_TRACKING=true\",\"RUST_FLAVOR=cpu\",\"DJL_CACHE_DIR=/tmp/djl\"],\
\"Entrypoint\":[\"/opt/java/bin/java\",\"-XX:MaxRAMPercentage=75\",\"--enable-native-access=ALL-UNNAMED\",\
\"-jar\",\"/app/modelplane.jar\"],\
\"Cmd\":[\"--help\"],\"WorkingDir\":\"/\",\"Labels\":{\"org.opencontainers.image.title\":\"modelplane\",\
\"org.opencontainers.image.version\":\"$version\"}},\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[${quoted_ids%,}]}}" | blob)
read -r manifest_digest manifest_size < <(printf '%s' "{\"schemaVersion\":2,\
\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"config\":{\
\"mediaType\":\"application/vnd.oci.image.config.v1+json\",\"digest\":\"sha256:$config_digest\",\
\"size\":$config_size},\"layers\":[$(join "${layer_json[@]}")]}" | blob)
printf '%s' '{"imageLayoutVersion":"1.0.0"}' > "$layout/oci-layout"
printf '%s' "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.index.v1+json\",\"manifests\":[{\
\"mediaType\":\"application/vnd.oci.image.manifest.v1+json\",\"digest\":\"sha256:$manifest_digest\",\
\"size\":$manifest_size,\"annotations\":{\"org.opencontainers.image.ref.name\":\"${name##*:}\",\
\"io.containerd.image.name\":\"$name\"}}]}" > "$layout/index.json"
# docker load reads manifest.json
printf '%s' "[{\"Config\":\"blobs/sha256/$config_digest\",\"RepoTags\":[\"$name\"],\
\"Layers\":[$(join "${layer_paths[@]}")]}]" > "$layout/manifest.json"

mkdir -p "$(dirname "$output")"
reproducible_tar "$layout" "$output"
echo "image: $name sha256:$manifest_digest ($(du -h "$output" | cut -f1))" >&2
echo "$output"
