// Names and literals of the generated C++ (generate_names.hpp).
#include "generate_names.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace lather::wsdl::detail {

namespace {

// The macros a generated name must not be (sorted): those #defined by the C, POSIX and
// glibc headers a generated translation unit includes (libstdc++ 12, glibc 2.36, with
// <cmath>, <csignal>, <cinttypes>, <cfloat>, <cfenv>, <sys/sysmacros.h>: `g++ -dM -E`, less
// the SYS_ syscall numbers, see is_macro()), and the well-known ones of windows.h and MSVC's
// math.h. An object-like macro breaks any use of the name; a function-like one a method's.
// clang-format off
constexpr std::string_view macros[] = {
    "ABSOLUTE", "ADJ_ESTERROR", "ADJ_FREQUENCY", "ADJ_MAXERROR", "ADJ_MICRO", "ADJ_NANO",
    "ADJ_OFFSET", "ADJ_OFFSET_SINGLESHOT", "ADJ_OFFSET_SS_READ", "ADJ_SETOFFSET", "ADJ_STATUS",
    "ADJ_TAI", "ADJ_TICK", "ADJ_TIMECONST", "AIO_PRIO_DELTA_MAX", "ATOMIC_BOOL_LOCK_FREE",
    "ATOMIC_CHAR16_T_LOCK_FREE", "ATOMIC_CHAR32_T_LOCK_FREE", "ATOMIC_CHAR8_T_LOCK_FREE",
    "ATOMIC_CHAR_LOCK_FREE", "ATOMIC_FLAG_INIT", "ATOMIC_INT_LOCK_FREE", "ATOMIC_LLONG_LOCK_FREE",
    "ATOMIC_LONG_LOCK_FREE", "ATOMIC_POINTER_LOCK_FREE", "ATOMIC_SHORT_LOCK_FREE",
    "ATOMIC_VAR_INIT", "ATOMIC_WCHAR_T_LOCK_FREE", "BC_BASE_MAX", "BC_DIM_MAX", "BC_SCALE_MAX",
    "BC_STRING_MAX", "BIG_ENDIAN", "BOOL_MAX", "BOOL_WIDTH", "BUFSIZ", "BUS_ADRALN", "BUS_ADRERR",
    "BUS_MCEERR_AO", "BUS_MCEERR_AR", "BUS_OBJERR", "BYTE_ORDER", "CALLBACK", "CDECL",
    "CHARCLASS_NAME_MAX", "CHAR_BIT", "CHAR_MAX", "CHAR_MIN", "CHAR_WIDTH", "CLD_CONTINUED",
    "CLD_DUMPED", "CLD_EXITED", "CLD_KILLED", "CLD_STOPPED", "CLD_TRAPPED", "CLOCKS_PER_SEC",
    "CLOCK_BOOTTIME", "CLOCK_BOOTTIME_ALARM", "CLOCK_MONOTONIC", "CLOCK_MONOTONIC_COARSE",
    "CLOCK_MONOTONIC_RAW", "CLOCK_PROCESS_CPUTIME_ID", "CLOCK_REALTIME", "CLOCK_REALTIME_ALARM",
    "CLOCK_REALTIME_COARSE", "CLOCK_TAI", "CLOCK_THREAD_CPUTIME_ID", "CLONE_CHILD_CLEARTID",
    "CLONE_CHILD_SETTID", "CLONE_DETACHED", "CLONE_FILES", "CLONE_FS", "CLONE_IO",
    "CLONE_NEWCGROUP", "CLONE_NEWIPC", "CLONE_NEWNET", "CLONE_NEWNS", "CLONE_NEWPID",
    "CLONE_NEWTIME", "CLONE_NEWUSER", "CLONE_NEWUTS", "CLONE_PARENT", "CLONE_PARENT_SETTID",
    "CLONE_PIDFD", "CLONE_PTRACE", "CLONE_SETTLS", "CLONE_SIGHAND", "CLONE_SYSVSEM", "CLONE_THREAD",
    "CLONE_UNTRACED", "CLONE_VFORK", "CLONE_VM", "CLOSE_RANGE_CLOEXEC", "CLOSE_RANGE_UNSHARE",
    "COLL_WEIGHTS_MAX", "CONST", "CPU_ALLOC", "CPU_ALLOC_SIZE", "CPU_AND", "CPU_AND_S", "CPU_CLR",
    "CPU_CLR_S", "CPU_COUNT", "CPU_COUNT_S", "CPU_EQUAL", "CPU_EQUAL_S", "CPU_FREE", "CPU_ISSET",
    "CPU_ISSET_S", "CPU_OR", "CPU_OR_S", "CPU_SET", "CPU_SETSIZE", "CPU_SET_S", "CPU_XOR",
    "CPU_XOR_S", "CPU_ZERO", "CPU_ZERO_S", "CSIGNAL", "DBL_DECIMAL_DIG", "DBL_DIG", "DBL_EPSILON",
    "DBL_HAS_SUBNORM", "DBL_MANT_DIG", "DBL_MAX", "DBL_MAX_10_EXP", "DBL_MAX_EXP", "DBL_MIN",
    "DBL_MIN_10_EXP", "DBL_MIN_EXP", "DBL_TRUE_MIN", "DECIMAL_DIG", "DELAYTIMER_MAX", "DELETE",
    "DIFFERENCE", "DOMAIN", "E2BIG", "EACCES", "EADDRINUSE", "EADDRNOTAVAIL", "EADV",
    "EAFNOSUPPORT", "EAGAIN", "EALREADY", "EBADE", "EBADF", "EBADFD", "EBADMSG", "EBADR", "EBADRQC",
    "EBADSLT", "EBFONT", "EBUSY", "ECANCELED", "ECHILD", "ECHRNG", "ECOMM", "ECONNABORTED",
    "ECONNREFUSED", "ECONNRESET", "EDEADLK", "EDEADLOCK", "EDESTADDRREQ", "EDOM", "EDOTDOT",
    "EDQUOT", "EEXIST", "EFAULT", "EFBIG", "EHOSTDOWN", "EHOSTUNREACH", "EHWPOISON", "EIDRM",
    "EILSEQ", "EINPROGRESS", "EINTR", "EINVAL", "EIO", "EISCONN", "EISDIR", "EISNAM", "EKEYEXPIRED",
    "EKEYREJECTED", "EKEYREVOKED", "EL2HLT", "EL2NSYNC", "EL3HLT", "EL3RST", "ELIBACC", "ELIBBAD",
    "ELIBEXEC", "ELIBMAX", "ELIBSCN", "ELNRNG", "ELOOP", "EMEDIUMTYPE", "EMFILE", "EMLINK",
    "EMSGSIZE", "EMULTIHOP", "ENAMETOOLONG", "ENAVAIL", "ENETDOWN", "ENETRESET", "ENETUNREACH",
    "ENFILE", "ENOANO", "ENOBUFS", "ENOCSI", "ENODATA", "ENODEV", "ENOENT", "ENOEXEC", "ENOKEY",
    "ENOLCK", "ENOLINK", "ENOMEDIUM", "ENOMEM", "ENOMSG", "ENONET", "ENOPKG", "ENOPROTOOPT",
    "ENOSPC", "ENOSR", "ENOSTR", "ENOSYS", "ENOTBLK", "ENOTCONN", "ENOTDIR", "ENOTEMPTY", "ENOTNAM",
    "ENOTRECOVERABLE", "ENOTSOCK", "ENOTSUP", "ENOTTY", "ENOTUNIQ", "ENXIO", "EOF", "EOPNOTSUPP",
    "EOVERFLOW", "EOWNERDEAD", "EPERM", "EPFNOSUPPORT", "EPIPE", "EPROTO", "EPROTONOSUPPORT",
    "EPROTOTYPE", "ERANGE", "EREMCHG", "EREMOTE", "EREMOTEIO", "ERESTART", "ERFKILL", "EROFS",
    "ERROR", "ESHUTDOWN", "ESOCKTNOSUPPORT", "ESPIPE", "ESRCH", "ESRMNT", "ESTALE", "ESTRPIPE",
    "ETIME", "ETIMEDOUT", "ETOOMANYREFS", "ETXTBSY", "EUCLEAN", "EUNATCH", "EUSERS", "EWOULDBLOCK",
    "EXDEV", "EXFULL", "EXIT_FAILURE", "EXIT_SUCCESS", "EXPR_NEST_MAX", "FALSE", "FAR", "FD_CLR",
    "FD_ISSET", "FD_SET", "FD_SETSIZE", "FD_ZERO", "FE_ALL_EXCEPT", "FE_DFL_ENV", "FE_DFL_MODE",
    "FE_DIVBYZERO", "FE_DOWNWARD", "FE_INEXACT", "FE_INVALID", "FE_NOMASK_ENV", "FE_OVERFLOW",
    "FE_TONEAREST", "FE_TOWARDZERO", "FE_UNDERFLOW", "FE_UPWARD", "FILENAME_MAX", "FLT_DECIMAL_DIG",
    "FLT_DIG", "FLT_EPSILON", "FLT_EVAL_METHOD", "FLT_HAS_SUBNORM", "FLT_MANT_DIG", "FLT_MAX",
    "FLT_MAX_10_EXP", "FLT_MAX_EXP", "FLT_MIN", "FLT_MIN_10_EXP", "FLT_MIN_EXP", "FLT_RADIX",
    "FLT_ROUNDS", "FLT_TRUE_MIN", "FOPEN_MAX", "FPE_CONDTRAP", "FPE_FLTDIV", "FPE_FLTINV",
    "FPE_FLTOVF", "FPE_FLTRES", "FPE_FLTSUB", "FPE_FLTUND", "FPE_FLTUNK", "FPE_INTDIV",
    "FPE_INTOVF", "FP_ILOGB0", "FP_ILOGBNAN", "FP_INFINITE", "FP_INT_DOWNWARD", "FP_INT_TONEAREST",
    "FP_INT_TONEARESTFROMZERO", "FP_INT_TOWARDZERO", "FP_INT_UPWARD", "FP_LLOGB0", "FP_LLOGBNAN",
    "FP_NAN", "FP_NORMAL", "FP_SUBNORMAL", "FP_XSTATE_MAGIC1", "FP_XSTATE_MAGIC2",
    "FP_XSTATE_MAGIC2_SIZE", "FP_ZERO", "F_LOCK", "F_OK", "F_TEST", "F_TLOCK", "F_ULOCK",
    "HOST_NAME_MAX", "HUGE_VAL", "HUGE_VALF", "HUGE_VALL", "HUGE_VAL_F128", "HUGE_VAL_F32",
    "HUGE_VAL_F32X", "HUGE_VAL_F64", "HUGE_VAL_F64X", "IGNORE", "ILL_BADIADDR", "ILL_BADSTK",
    "ILL_COPROC", "ILL_ILLADR", "ILL_ILLOPC", "ILL_ILLOPN", "ILL_ILLTRP", "ILL_PRVOPC",
    "ILL_PRVREG", "IN", "INFINITE", "INFINITY", "INT16_C", "INT16_MAX", "INT16_MIN", "INT16_WIDTH",
    "INT32_C", "INT32_MAX", "INT32_MIN", "INT32_WIDTH", "INT64_C", "INT64_MAX", "INT64_MIN",
    "INT64_WIDTH", "INT8_C", "INT8_MAX", "INT8_MIN", "INT8_WIDTH", "INTMAX_C", "INTMAX_MAX",
    "INTMAX_MIN", "INTMAX_WIDTH", "INTPTR_MAX", "INTPTR_MIN", "INTPTR_WIDTH", "INT_FAST16_MAX",
    "INT_FAST16_MIN", "INT_FAST16_WIDTH", "INT_FAST32_MAX", "INT_FAST32_MIN", "INT_FAST32_WIDTH",
    "INT_FAST64_MAX", "INT_FAST64_MIN", "INT_FAST64_WIDTH", "INT_FAST8_MAX", "INT_FAST8_MIN",
    "INT_FAST8_WIDTH", "INT_LEAST16_MAX", "INT_LEAST16_MIN", "INT_LEAST16_WIDTH", "INT_LEAST32_MAX",
    "INT_LEAST32_MIN", "INT_LEAST32_WIDTH", "INT_LEAST64_MAX", "INT_LEAST64_MIN",
    "INT_LEAST64_WIDTH", "INT_LEAST8_MAX", "INT_LEAST8_MIN", "INT_LEAST8_WIDTH", "INT_MAX",
    "INT_MIN", "INT_WIDTH", "IOV_MAX", "LC_ADDRESS", "LC_ADDRESS_MASK", "LC_ALL", "LC_ALL_MASK",
    "LC_COLLATE", "LC_COLLATE_MASK", "LC_CTYPE", "LC_CTYPE_MASK", "LC_GLOBAL_LOCALE",
    "LC_IDENTIFICATION", "LC_IDENTIFICATION_MASK", "LC_MEASUREMENT", "LC_MEASUREMENT_MASK",
    "LC_MESSAGES", "LC_MESSAGES_MASK", "LC_MONETARY", "LC_MONETARY_MASK", "LC_NAME", "LC_NAME_MASK",
    "LC_NUMERIC", "LC_NUMERIC_MASK", "LC_PAPER", "LC_PAPER_MASK", "LC_TELEPHONE",
    "LC_TELEPHONE_MASK", "LC_TIME", "LC_TIME_MASK", "LDBL_DECIMAL_DIG", "LDBL_DIG", "LDBL_EPSILON",
    "LDBL_HAS_SUBNORM", "LDBL_MANT_DIG", "LDBL_MAX", "LDBL_MAX_10_EXP", "LDBL_MAX_EXP", "LDBL_MIN",
    "LDBL_MIN_10_EXP", "LDBL_MIN_EXP", "LDBL_TRUE_MIN", "LINE_MAX", "LITTLE_ENDIAN", "LLONG_MAX",
    "LLONG_MIN", "LLONG_WIDTH", "LOGIN_NAME_MAX", "LONG_BIT", "LONG_LONG_MAX", "LONG_LONG_MIN",
    "LONG_MAX", "LONG_MIN", "LONG_WIDTH", "L_INCR", "L_SET", "L_XTND", "L_ctermid", "L_cuserid",
    "L_tmpnam", "MATH_ERREXCEPT", "MATH_ERRNO", "MAXFLOAT", "MAX_CANON", "MAX_INPUT", "MB_CUR_MAX",
    "MB_LEN_MAX", "MINSIGSTKSZ", "MOD_CLKA", "MOD_CLKB", "MOD_ESTERROR", "MOD_FREQUENCY",
    "MOD_MAXERROR", "MOD_MICRO", "MOD_NANO", "MOD_OFFSET", "MOD_STATUS", "MOD_TAI", "MOD_TIMECONST",
    "MQ_PRIO_MAX", "M_1_PI", "M_1_PIf", "M_1_PIf128", "M_1_PIf32", "M_1_PIf32x", "M_1_PIf64",
    "M_1_PIf64x", "M_1_PIl", "M_2_PI", "M_2_PIf", "M_2_PIf128", "M_2_PIf32", "M_2_PIf32x",
    "M_2_PIf64", "M_2_PIf64x", "M_2_PIl", "M_2_SQRTPI", "M_2_SQRTPIf", "M_2_SQRTPIf128",
    "M_2_SQRTPIf32", "M_2_SQRTPIf32x", "M_2_SQRTPIf64", "M_2_SQRTPIf64x", "M_2_SQRTPIl", "M_E",
    "M_Ef", "M_Ef128", "M_Ef32", "M_Ef32x", "M_Ef64", "M_Ef64x", "M_El", "M_LN10", "M_LN10f",
    "M_LN10f128", "M_LN10f32", "M_LN10f32x", "M_LN10f64", "M_LN10f64x", "M_LN10l", "M_LN2",
    "M_LN2f", "M_LN2f128", "M_LN2f32", "M_LN2f32x", "M_LN2f64", "M_LN2f64x", "M_LN2l", "M_LOG10E",
    "M_LOG10Ef", "M_LOG10Ef128", "M_LOG10Ef32", "M_LOG10Ef32x", "M_LOG10Ef64", "M_LOG10Ef64x",
    "M_LOG10El", "M_LOG2E", "M_LOG2Ef", "M_LOG2Ef128", "M_LOG2Ef32", "M_LOG2Ef32x", "M_LOG2Ef64",
    "M_LOG2Ef64x", "M_LOG2El", "M_PI", "M_PI_2", "M_PI_2f", "M_PI_2f128", "M_PI_2f32", "M_PI_2f32x",
    "M_PI_2f64", "M_PI_2f64x", "M_PI_2l", "M_PI_4", "M_PI_4f", "M_PI_4f128", "M_PI_4f32",
    "M_PI_4f32x", "M_PI_4f64", "M_PI_4f64x", "M_PI_4l", "M_PIf", "M_PIf128", "M_PIf32", "M_PIf32x",
    "M_PIf64", "M_PIf64x", "M_PIl", "M_SQRT1_2", "M_SQRT1_2f", "M_SQRT1_2f128", "M_SQRT1_2f32",
    "M_SQRT1_2f32x", "M_SQRT1_2f64", "M_SQRT1_2f64x", "M_SQRT1_2l", "M_SQRT2", "M_SQRT2f",
    "M_SQRT2f128", "M_SQRT2f32", "M_SQRT2f32x", "M_SQRT2f64", "M_SQRT2f64x", "M_SQRT2l", "NAME_MAX",
    "NAN", "NEAR", "NFDBITS", "NGREG", "NGROUPS_MAX", "NL_ARGMAX", "NL_LANGMAX", "NL_MSGMAX",
    "NL_NMAX", "NL_SETMAX", "NL_TEXTMAX", "NO_ERROR", "NSIG", "NULL", "NZERO", "OPAQUE", "OPTIONAL",
    "OUT", "OVERFLOW", "PASCAL", "PATH_MAX", "PDP_ENDIAN", "PIPE_BUF", "PLOSS", "POLL_ERR",
    "POLL_HUP", "POLL_IN", "POLL_MSG", "POLL_OUT", "POLL_PRI", "PRIX16", "PRIX32", "PRIX64",
    "PRIX8", "PRIXFAST16", "PRIXFAST32", "PRIXFAST64", "PRIXFAST8", "PRIXLEAST16", "PRIXLEAST32",
    "PRIXLEAST64", "PRIXLEAST8", "PRIXMAX", "PRIXPTR", "PRId16", "PRId32", "PRId64", "PRId8",
    "PRIdFAST16", "PRIdFAST32", "PRIdFAST64", "PRIdFAST8", "PRIdLEAST16", "PRIdLEAST32",
    "PRIdLEAST64", "PRIdLEAST8", "PRIdMAX", "PRIdPTR", "PRIi16", "PRIi32", "PRIi64", "PRIi8",
    "PRIiFAST16", "PRIiFAST32", "PRIiFAST64", "PRIiFAST8", "PRIiLEAST16", "PRIiLEAST32",
    "PRIiLEAST64", "PRIiLEAST8", "PRIiMAX", "PRIiPTR", "PRIo16", "PRIo32", "PRIo64", "PRIo8",
    "PRIoFAST16", "PRIoFAST32", "PRIoFAST64", "PRIoFAST8", "PRIoLEAST16", "PRIoLEAST32",
    "PRIoLEAST64", "PRIoLEAST8", "PRIoMAX", "PRIoPTR", "PRIu16", "PRIu32", "PRIu64", "PRIu8",
    "PRIuFAST16", "PRIuFAST32", "PRIuFAST64", "PRIuFAST8", "PRIuLEAST16", "PRIuLEAST32",
    "PRIuLEAST64", "PRIuLEAST8", "PRIuMAX", "PRIuPTR", "PRIx16", "PRIx32", "PRIx64", "PRIx8",
    "PRIxFAST16", "PRIxFAST32", "PRIxFAST64", "PRIxFAST8", "PRIxLEAST16", "PRIxLEAST32",
    "PRIxLEAST64", "PRIxLEAST8", "PRIxMAX", "PRIxPTR", "PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP",
    "PTHREAD_ATTR_NO_SIGMASK_NP", "PTHREAD_BARRIER_SERIAL_THREAD", "PTHREAD_CANCELED",
    "PTHREAD_CANCEL_ASYNCHRONOUS", "PTHREAD_CANCEL_DEFERRED", "PTHREAD_CANCEL_DISABLE",
    "PTHREAD_CANCEL_ENABLE", "PTHREAD_COND_INITIALIZER", "PTHREAD_CREATE_DETACHED",
    "PTHREAD_CREATE_JOINABLE", "PTHREAD_DESTRUCTOR_ITERATIONS",
    "PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP", "PTHREAD_EXPLICIT_SCHED", "PTHREAD_INHERIT_SCHED",
    "PTHREAD_KEYS_MAX", "PTHREAD_MUTEX_INITIALIZER", "PTHREAD_ONCE_INIT", "PTHREAD_PROCESS_PRIVATE",
    "PTHREAD_PROCESS_SHARED", "PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP",
    "PTHREAD_RWLOCK_INITIALIZER", "PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP",
    "PTHREAD_SCOPE_PROCESS", "PTHREAD_SCOPE_SYSTEM", "PTHREAD_STACK_MIN", "PTRDIFF_MAX",
    "PTRDIFF_MIN", "PTRDIFF_WIDTH", "P_tmpdir", "RAND_MAX", "REG_CR2", "REG_CSGSFS", "REG_EFL",
    "REG_ERR", "REG_OLDMASK", "REG_R10", "REG_R11", "REG_R12", "REG_R13", "REG_R14", "REG_R15",
    "REG_R8", "REG_R9", "REG_RAX", "REG_RBP", "REG_RBX", "REG_RCX", "REG_RDI", "REG_RDX", "REG_RIP",
    "REG_RSI", "REG_RSP", "REG_TRAPNO", "RELATIVE", "RENAME_EXCHANGE", "RENAME_NOREPLACE",
    "RENAME_WHITEOUT", "RE_DUP_MAX", "RTSIG_MAX", "R_OK", "SA_INTERRUPT", "SA_NOCLDSTOP",
    "SA_NOCLDWAIT", "SA_NODEFER", "SA_NOMASK", "SA_ONESHOT", "SA_ONSTACK", "SA_RESETHAND",
    "SA_RESTART", "SA_SIGINFO", "SA_STACK", "SCHAR_MAX", "SCHAR_MIN", "SCHAR_WIDTH", "SCHED_BATCH",
    "SCHED_DEADLINE", "SCHED_FIFO", "SCHED_IDLE", "SCHED_ISO", "SCHED_OTHER", "SCHED_RESET_ON_FORK",
    "SCHED_RR", "SCNd16", "SCNd32", "SCNd64", "SCNd8", "SCNdFAST16", "SCNdFAST32", "SCNdFAST64",
    "SCNdFAST8", "SCNdLEAST16", "SCNdLEAST32", "SCNdLEAST64", "SCNdLEAST8", "SCNdMAX", "SCNdPTR",
    "SCNi16", "SCNi32", "SCNi64", "SCNi8", "SCNiFAST16", "SCNiFAST32", "SCNiFAST64", "SCNiFAST8",
    "SCNiLEAST16", "SCNiLEAST32", "SCNiLEAST64", "SCNiLEAST8", "SCNiMAX", "SCNiPTR", "SCNo16",
    "SCNo32", "SCNo64", "SCNo8", "SCNoFAST16", "SCNoFAST32", "SCNoFAST64", "SCNoFAST8",
    "SCNoLEAST16", "SCNoLEAST32", "SCNoLEAST64", "SCNoLEAST8", "SCNoMAX", "SCNoPTR", "SCNu16",
    "SCNu32", "SCNu64", "SCNu8", "SCNuFAST16", "SCNuFAST32", "SCNuFAST64", "SCNuFAST8",
    "SCNuLEAST16", "SCNuLEAST32", "SCNuLEAST64", "SCNuLEAST8", "SCNuMAX", "SCNuPTR", "SCNx16",
    "SCNx32", "SCNx64", "SCNx8", "SCNxFAST16", "SCNxFAST32", "SCNxFAST64", "SCNxFAST8",
    "SCNxLEAST16", "SCNxLEAST32", "SCNxLEAST64", "SCNxLEAST8", "SCNxMAX", "SCNxPTR", "SEEK_CUR",
    "SEEK_DATA", "SEEK_END", "SEEK_HOLE", "SEEK_SET", "SEGV_ACCADI", "SEGV_ACCERR", "SEGV_ADIDERR",
    "SEGV_ADIPERR", "SEGV_BNDERR", "SEGV_MAPERR", "SEGV_MTEAERR", "SEGV_MTESERR", "SEGV_PKUERR",
    "SEM_VALUE_MAX", "SHRT_MAX", "SHRT_MIN", "SHRT_WIDTH", "SIGABRT", "SIGALRM", "SIGBUS",
    "SIGCHLD", "SIGCLD", "SIGCONT", "SIGEV_NONE", "SIGEV_SIGNAL", "SIGEV_THREAD", "SIGEV_THREAD_ID",
    "SIGFPE", "SIGHUP", "SIGILL", "SIGINT", "SIGIO", "SIGIOT", "SIGKILL", "SIGPIPE", "SIGPOLL",
    "SIGPROF", "SIGPWR", "SIGQUIT", "SIGRTMAX", "SIGRTMIN", "SIGSEGV", "SIGSTKFLT", "SIGSTKSZ",
    "SIGSTOP", "SIGSYS", "SIGTERM", "SIGTRAP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGUSR1",
    "SIGUSR2", "SIGVTALRM", "SIGWINCH", "SIGXCPU", "SIGXFSZ", "SIG_ATOMIC_MAX", "SIG_ATOMIC_MIN",
    "SIG_ATOMIC_WIDTH", "SIG_BLOCK", "SIG_DFL", "SIG_ERR", "SIG_HOLD", "SIG_IGN", "SIG_SETMASK",
    "SIG_UNBLOCK", "SING", "SIZE_MAX", "SIZE_WIDTH", "SI_ASYNCIO", "SI_ASYNCNL", "SI_DETHREAD",
    "SI_KERNEL", "SI_MESGQ", "SI_QUEUE", "SI_SIGIO", "SI_TIMER", "SI_TKILL", "SI_USER", "SNAN",
    "SNANF", "SNANF128", "SNANF32", "SNANF32X", "SNANF64", "SNANF64X", "SNANL", "SSIZE_MAX",
    "SS_DISABLE", "SS_ONSTACK", "STA_CLK", "STA_CLOCKERR", "STA_DEL", "STA_FLL", "STA_FREQHOLD",
    "STA_INS", "STA_MODE", "STA_NANO", "STA_PLL", "STA_PPSERROR", "STA_PPSFREQ", "STA_PPSJITTER",
    "STA_PPSSIGNAL", "STA_PPSTIME", "STA_PPSWANDER", "STA_RONLY", "STA_UNSYNC", "STDERR_FILENO",
    "STDIN_FILENO", "STDOUT_FILENO", "TEMP_FAILURE_RETRY", "TIMER_ABSTIME", "TIME_UTC", "TLOSS",
    "TMP_MAX", "TRANSPARENT", "TRAP_BRANCH", "TRAP_BRKPT", "TRAP_HWBKPT", "TRAP_TRACE", "TRAP_UNK",
    "TRUE", "TTY_NAME_MAX", "UCHAR_MAX", "UCHAR_WIDTH", "UINT16_C", "UINT16_MAX", "UINT16_WIDTH",
    "UINT32_C", "UINT32_MAX", "UINT32_WIDTH", "UINT64_C", "UINT64_MAX", "UINT64_WIDTH", "UINT8_C",
    "UINT8_MAX", "UINT8_WIDTH", "UINTMAX_C", "UINTMAX_MAX", "UINTMAX_WIDTH", "UINTPTR_MAX",
    "UINTPTR_WIDTH", "UINT_FAST16_MAX", "UINT_FAST16_WIDTH", "UINT_FAST32_MAX", "UINT_FAST32_WIDTH",
    "UINT_FAST64_MAX", "UINT_FAST64_WIDTH", "UINT_FAST8_MAX", "UINT_FAST8_WIDTH",
    "UINT_LEAST16_MAX", "UINT_LEAST16_WIDTH", "UINT_LEAST32_MAX", "UINT_LEAST32_WIDTH",
    "UINT_LEAST64_MAX", "UINT_LEAST64_WIDTH", "UINT_LEAST8_MAX", "UINT_LEAST8_WIDTH", "UINT_MAX",
    "UINT_WIDTH", "ULLONG_MAX", "ULLONG_WIDTH", "ULONG_LONG_MAX", "ULONG_MAX", "ULONG_WIDTH",
    "UNDERFLOW", "USHRT_MAX", "USHRT_WIDTH", "VOID", "WCHAR_MAX", "WCHAR_MIN", "WCHAR_WIDTH",
    "WCONTINUED", "WEOF", "WEXITED", "WEXITSTATUS", "WIFCONTINUED", "WIFEXITED", "WIFSIGNALED",
    "WIFSTOPPED", "WINAPI", "WINT_MAX", "WINT_MIN", "WINT_WIDTH", "WNOHANG", "WNOWAIT", "WORD_BIT",
    "WSTOPPED", "WSTOPSIG", "WTERMSIG", "WUNTRACED", "W_OK", "XATTR_LIST_MAX", "XATTR_NAME_MAX",
    "XATTR_SIZE_MAX", "X_OK", "alloca", "assert", "assert_perror", "be16toh", "be32toh", "be64toh",
    "errno", "far", "htobe16", "htobe32", "htobe64", "htole16", "htole32", "htole64", "hyper",
    "i386", "interface", "issubnormal", "le16toh", "le32toh", "le64toh", "linux", "major",
    "makedev", "math_errhandling", "max", "min", "minor", "near", "offsetof", "pthread_cleanup_pop",
    "pthread_cleanup_pop_restore_np", "pthread_cleanup_push", "pthread_cleanup_push_defer_np",
    "sa_handler", "sa_sigaction", "sched_priority", "setjmp", "si_addr", "si_addr_lsb", "si_arch",
    "si_band", "si_call_addr", "si_fd", "si_int", "si_lower", "si_overrun", "si_pid", "si_pkey",
    "si_ptr", "si_status", "si_stime", "si_syscall", "si_timerid", "si_uid", "si_upper", "si_utime",
    "si_value", "sigev_notify_attributes", "sigev_notify_function", "sigmask", "sigsetjmp", "small",
    "stderr", "stdin", "stdout", "strdupa", "strndupa", "unix", "va_arg", "va_copy", "va_end",
    "va_start",
};
// clang-format on

bool is_macro(std::string_view s) {
  return s.starts_with("SYS_") || std::binary_search(std::begin(macros), std::end(macros), s);
}

bool is_keyword(std::string_view s) {
  static const std::unordered_set<std::string_view> words = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break",
      "case", "catch", "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept",
      "const", "consteval", "constexpr", "constinit", "const_cast", "continue", "co_await",
      "co_return", "co_yield", "decltype", "default", "delete", "do", "double", "dynamic_cast",
      "else", "enum", "explicit", "export", "extern", "false", "float", "for", "friend", "goto",
      "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "return", "short", "signed", "sizeof", "static",
      "static_assert", "static_cast", "struct", "switch", "template", "this", "thread_local",
      "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned", "using",
      "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq", "final", "override",
      "import", "module",
      // names the generated code itself uses in a struct's scope
      "lather", "lather_gen", "std", "meta", "base"};
  return words.count(s) != 0 || is_macro(s);
}

}  // namespace

std::string identifier(std::string_view raw) {
  std::string out;
  for (char c : raw) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    char x = ok ? c : '_';
    if (x == '_' && !out.empty() && out.back() == '_') continue;
    out.push_back(x);
  }
  if (out.empty() || out == "_") out.assign(1, 'x');  // not = "x": g++ 12 -Wrestrict
  if (out[0] >= '0' && out[0] <= '9') out.insert(out.begin(), '_');
  if (out.size() > 1 && out[0] == '_' && out[1] >= 'A' && out[1] <= 'Z')
    out.insert(out.begin(), 'x');
  if (is_keyword(out)) out.push_back('_');
  return out;
}

std::string joined(std::string_view name, std::string_view suffix) {
  std::string out(name);
  if (!out.empty() && out.back() != '_' && !suffix.starts_with('_')) out.push_back('_');
  if (!out.empty() && out.back() == '_' && suffix.starts_with('_')) suffix.remove_prefix(1);
  return out.append(suffix);
}

std::set<std::string> port_type_classes(std::string_view cls) {
  return {std::string(cls) + "Client", std::string(cls) + "Service"};
}

bool case_insensitive_less::operator()(std::string_view a, std::string_view b) const noexcept {
  const auto lower = [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  };
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                      [&](char x, char y) { return lower(x) < lower(y); });
}

std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out + "\"";
}

const char* builtin_cpp(std::string_view local) {
  static const std::unordered_map<std::string_view, const char*> map = {
      {"string", "std::string"},
      {"boolean", "bool"},
      {"byte", "std::int8_t"},
      {"short", "std::int16_t"},
      {"int", "std::int32_t"},
      {"long", "std::int64_t"},
      {"unsignedByte", "std::uint8_t"},
      {"unsignedShort", "std::uint16_t"},
      {"unsignedInt", "std::uint32_t"},
      {"unsignedLong", "std::uint64_t"},
      {"float", "float"},
      {"double", "double"},
      {"decimal", "lather::xsd::decimal"},
      {"integer", "lather::xsd::integer"},
      {"nonNegativeInteger", "lather::xsd::non_negative_integer"},
      {"positiveInteger", "lather::xsd::positive_integer"},
      {"nonPositiveInteger", "lather::xsd::non_positive_integer"},
      {"negativeInteger", "lather::xsd::negative_integer"},
      {"dateTime", "lather::xsd::date_time"},
      {"date", "lather::xsd::date"},
      {"time", "lather::xsd::time"},
      {"duration", "lather::xsd::duration"},
      {"QName", "lather::xsd::qname"},
      {"hexBinary", "lather::xsd::hex_binary"},
      {"base64Binary", "lather::xsd::base64_binary"},
      {"normalizedString", "lather::xsd::normalized_string"},
      {"token", "lather::xsd::token"},
      {"anyURI", "lather::xsd::any_uri"},
  };
  auto it = map.find(local);
  // The other built-ins (language, NCName, ID, gYear, ...) keep their lexical form.
  return it == map.end() ? "std::string" : it->second;
}

}  // namespace lather::wsdl::detail
