# ic_mpi.m4 -- find MPI through its compiler wrapper.
#
# IC_MPI_CC (before AC_PROG_CC): unless CC is given, use DIR/bin/mpicc for
# --with-mpi=DIR, else the first of mpicc, mpicc.openmpi, mpicc.mpich on
# the PATH.  A missing wrapper stops configure and names the package.
#
# IC_MPI_CHECK (after AC_PROG_CC): mpi.h compiles and MPI_Init links; tells
# the flavour (Open MPI, MPICH, SimGrid SMPI) and the launcher (MPIEXEC)
# the MPI tests use.

AC_DEFUN([IC_MPI_CC], [
AC_ARG_WITH([mpi],
  [AS_HELP_STRING([--with-mpi=DIR], [MPI installation prefix (uses DIR/bin/mpicc)])],
  [], [with_mpi=check])
AC_ARG_VAR([MPIEXEC], [launcher for the MPI tests (default: the one beside the MPI compiler)])
AS_IF([test "x$with_mpi" = xno],
      [AC_MSG_ERROR([InterCom is an MPI library: --without-mpi is not possible])])
AS_IF([test -z "$CC"], [
  AS_IF([test "x$with_mpi" != xcheck && test "x$with_mpi" != xyes], [
    AS_IF([test -x "$with_mpi/bin/mpicc"], [CC="$with_mpi/bin/mpicc"],
          [AC_MSG_ERROR([--with-mpi=$with_mpi: no $with_mpi/bin/mpicc])])
  ], [
    AC_CHECK_PROGS([CC], [mpicc mpicc.openmpi mpicc.mpich])
    AS_IF([test -z "$CC"],
      [AC_MSG_ERROR([no MPI C compiler wrapper (mpicc) found.
  On Debian/Ubuntu: apt-get install libopenmpi-dev openmpi-bin
  (or libmpich-dev mpich and ./configure CC=mpicc.mpich,
   or ./configure --with-mpi=DIR for an MPI installed in DIR)])])
  ])
])
])

AC_DEFUN([IC_MPI_CHECK], [
AC_MSG_CHECKING([whether $CC compiles and links MPI programs])
AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
                                [[MPI_Init(0, 0); MPI_Finalize();]])],
  [AC_MSG_RESULT([yes])],
  [AC_MSG_RESULT([no])
   AC_MSG_ERROR([$CC cannot build MPI programs (is mpi.h installed?).
  On Debian/Ubuntu: apt-get install libopenmpi-dev openmpi-bin])])

AC_MSG_CHECKING([which MPI this is])
ic_mpi_flavour=unknown
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
#ifndef SMPI_H
#error not smpi
#endif
]])], [ic_mpi_flavour=smpi], [
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
#ifndef OPEN_MPI
#error not open mpi
#endif
]])], [ic_mpi_flavour=openmpi], [
AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]], [[
#ifndef MPICH_VERSION
#error not mpich
#endif
]])], [ic_mpi_flavour=mpich])])])
AC_MSG_RESULT([$ic_mpi_flavour])

# The launcher that belongs to this MPI.
AS_IF([test -z "$MPIEXEC"], [
  ic_cc_prog=`echo "$CC" | sed 's/ .*//'`
  ic_cc_base=`basename "$ic_cc_prog"`
  ic_cc_dir=`dirname "$ic_cc_prog"`
  AS_CASE([$ic_mpi_flavour/$ic_cc_base],
    [smpi/*], [ic_try="smpirun"],
    [*/*.mpich], [ic_try="mpiexec.mpich mpirun.mpich"],
    [*/*.openmpi], [ic_try="mpirun.openmpi mpiexec.openmpi"],
    [mpich/*], [ic_try="mpiexec.mpich mpiexec mpirun"],
    [ic_try="mpirun mpiexec mpirun.openmpi"])
  for ic_p in $ic_try; do
    AS_IF([test "x$ic_cc_dir" != x. && test -x "$ic_cc_dir/$ic_p"],
          [MPIEXEC="$ic_cc_dir/$ic_p"; break])
    AS_IF([test "x$with_mpi" != xcheck && test "x$with_mpi" != xyes && test -x "$with_mpi/bin/$ic_p"],
          [MPIEXEC="$with_mpi/bin/$ic_p"; break])
  done
  AS_IF([test -z "$MPIEXEC"], [AC_PATH_PROGS([MPIEXEC], [$ic_try], [])])
])
AC_MSG_CHECKING([for the MPI launcher])
AC_MSG_RESULT([${MPIEXEC:-none (the MPI tests will be skipped)}])
AC_SUBST([MPIEXEC])
AC_SUBST([IC_MPI_FLAVOUR], [$ic_mpi_flavour])
AM_CONDITIONAL([IC_SMPI], [test "x$ic_mpi_flavour" = xsmpi])
])
