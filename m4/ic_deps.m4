# ic_deps.m4 -- hwloc, Check and compiler warnings.

# IC_HWLOC: hwloc is required unless --without-hwloc.
AC_DEFUN([IC_HWLOC], [
AC_ARG_WITH([hwloc],
  [AS_HELP_STRING([--without-hwloc], [build without hwloc (node topology from sysconf only)])],
  [], [with_hwloc=yes])
ic_have_hwloc=no
AS_IF([test "x$with_hwloc" != xno], [
  PKG_CHECK_MODULES([HWLOC], [hwloc >= 1.11], [ic_have_hwloc=yes], [
    AC_CHECK_HEADER([hwloc.h], [AC_CHECK_LIB([hwloc], [hwloc_topology_init],
                    [ic_have_hwloc=yes; HWLOC_LIBS=-lhwloc])])
  ])
  AS_IF([test "x$ic_have_hwloc" != xyes],
    [AC_MSG_ERROR([hwloc not found.
  On Debian/Ubuntu: apt-get install libhwloc-dev
  (or ./configure --without-hwloc)])])
  AC_DEFINE([IC_HAVE_HWLOC], [1], [Define to 1 when hwloc is used])
])
AC_SUBST([HWLOC_CFLAGS])
AC_SUBST([HWLOC_LIBS])
AS_IF([test "x$ic_have_hwloc" = xyes], [IC_PC_REQUIRES_PRIVATE="hwloc"], [IC_PC_REQUIRES_PRIVATE=""])
AC_SUBST([IC_PC_REQUIRES_PRIVATE])
])

# IC_CHECK_LIB: the Check unit-test framework, needed by `make check`.
AC_DEFUN([IC_CHECK_LIB], [
AC_ARG_WITH([check],
  [AS_HELP_STRING([--without-check], [do not build the Check unit tests])],
  [], [with_check=yes])
ic_have_check=no
AS_IF([test "x$with_check" != xno], [
  PKG_CHECK_MODULES([CHECK], [check >= 0.11.0], [ic_have_check=yes],
    [AC_MSG_ERROR([Check (unit-test framework) not found.
  On Debian/Ubuntu: apt-get install check pkg-config
  (or ./configure --without-check to build without the unit tests)])])
])
AM_CONDITIONAL([IC_HAVE_CHECK], [test "x$ic_have_check" = xyes])
])

# IC_WARNINGS: -Wall -Wextra always; --enable-werror adds -Werror;
# --enable-sanitizers builds with AddressSanitizer and UBSan.
AC_DEFUN([IC_WARNINGS], [
AC_ARG_ENABLE([werror],
  [AS_HELP_STRING([--enable-werror], [treat compiler warnings as errors])],
  [], [enable_werror=no])
AC_ARG_ENABLE([sanitizers],
  [AS_HELP_STRING([--enable-sanitizers], [build with AddressSanitizer and UndefinedBehaviorSanitizer])],
  [], [enable_sanitizers=no])
IC_WARN_CFLAGS="-Wall -Wextra"
AS_IF([test "x$enable_werror" = xyes], [IC_WARN_CFLAGS="$IC_WARN_CFLAGS -Werror"])
AS_IF([test "x$enable_sanitizers" = xyes], [
  IC_WARN_CFLAGS="$IC_WARN_CFLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
  IC_SAN_LDFLAGS="-fsanitize=address,undefined"
])
AC_SUBST([IC_WARN_CFLAGS])
AC_SUBST([IC_SAN_LDFLAGS])
AM_CONDITIONAL([IC_SANITIZERS], [test "x$enable_sanitizers" = xyes])
])
