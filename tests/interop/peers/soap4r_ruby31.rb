# What Debian's ruby-soap4r 2.0.5 needs to load on Ruby 3.1; required by the soap4r servers.
require 'logger'

# soap4r's HTTPServer derives from Logger::Application, which the logger gem dropped (1.4):
# the server cannot even be loaded on Ruby 3.1 without this stand-in.
unless defined?(Logger::Application)
  class Logger
    # What soap4r's HTTPServer uses of the old Logger::Application.
    class Application
      attr_reader :appname

      def initialize(appname = nil)
        @appname = appname
        @log = Logger.new($stderr)
      end

      def level=(level)
        @log.level = level
      end

      def start
        run
      end
    end
  end
end
