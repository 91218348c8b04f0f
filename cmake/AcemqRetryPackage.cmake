# The Debian package: one .deb, acemq-retry, holding everything `cmake
# --install` installs: the static library, its headers and CMake config
# (find_package(acemq_retry)), and, when ACEMQ_RETRY_BUILD_TOOL is on,
# retry-policy in bin/, its vectors in share/acemq_retry/vectors/ and its man
# page. Made from a build configured with CMAKE_INSTALL_PREFIX=/usr (the
# package preset's tool-only build, `cmake --workflow --preset package`, or
# the release build, `cpack --preset release`, as CI does), so the files land
# where Debian puts them and GNUInstallDirs picks the multiarch libdir.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME acemq-retry)
set(CPACK_PACKAGE_VENDOR "AceMQ")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "AceMQ retry policy: bit-exact C++ port and cross-language conformance kit")
string(CONCAT CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "AceMQ consumers in Java, Go, .NET, Python, Ruby and C++ retry the same\n"
  "messages, so each language's retry policy must compute the same delays, to\n"
  "the bit. This package holds the C++ port (static library acemq::retry,\n"
  "headers and CMake package) and retry-policy, the command that checks any\n"
  "port's adapter against it over a JSON-lines protocol, with the reference\n"
  "vectors it sends.")
set(ACEMQ_RETRY_PACKAGE_CONTACT "acemq-retry maintainers <acemq-retry@invalid.example>"
  CACHE STRING "The Maintainer field of the Debian package")
set(CPACK_PACKAGE_CONTACT ${ACEMQ_RETRY_PACKAGE_CONTACT})
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# Depends: computed by dpkg-shlibdeps from what retry-policy links (libc6,
# libstdc++6, libgcc-s1); the library is static and header-clean, so a
# consumer needs nothing else.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_PACKAGING_INSTALL_PREFIX ${CMAKE_INSTALL_PREFIX})
set(CPACK_STRIP_FILES ON)
include(CPack)
